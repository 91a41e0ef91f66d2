-- wrk script for bench/wrk/cpu-per-payment.sh and bench/side-by-side.ts: POST /rest/payment, cardpos approved, a unique
-- Idempotency-Key and order id per request; AUTH from the environment. The keys start with the run's start time:
-- LuaJIT's math.random starts from the same seed in every wrk process, so without it a measured run repeated the
-- keys of the warm-up run before it, and its first requests were answered as replays.
local counter = 0
local tid = 0
function setup(thread) tid = tid + 1; thread:set("tid", tid) end
local run = os.time()
function init(args) counter = 0; math.randomseed(run + tid) end
local year = tonumber(os.date("%Y")) + 3
request = function()
  counter = counter + 1
  local n = run .. "-" .. tid .. "-" .. counter .. "-" .. math.random(1, 1e9)
  local body = '{"payment_type":"cardpos","order_id":"bench-' .. n .. '","amount":12.34,"currency":"EUR","pos_data":{"type":{"terminal_entry_mode":"contactless"},"card":{"number":"4912345600000127","expiry_month":12,"expiry_year":' .. year .. '},"terminal":{"id":"T-0001","type":"softpos","attended":true,"capabilities":["contactlessChip","onlinePin"]}}}'
  return wrk.format("POST", "/rest/payment", { ["Authorization"] = os.getenv("AUTH"), ["Content-Type"] = "application/json", ["Idempotency-Key"] = "key-" .. n }, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT rps=%.0f p50=%.2fms p99=%.2fms non2xx=%d\n", summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
