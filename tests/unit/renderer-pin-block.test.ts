/**
 * The renderer's PIN block (node-forge, runs in the browser) against the D6 test vector of
 * docs/test-environment.md and against the gateway's own implementation (Node crypto), which is what
 * verifies the block on the other side.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clearPinBlock as gatewayClearBlock, decryptPinBlock, encryptPinBlock as gatewayEncrypt } from '../../main/processor/pin-block.js';
import { clearPinBlock, encryptPinBlock } from '../../renderer/src/till-screen/pin-block.js';

const TEST_KEY = '0123456789ABCDEFFEDCBA9876543210';

void test('the published test vector: PIN 1234, PAN 5555555551234567', () => {
  assert.equal(clearPinBlock('1234', '5555555551234567'), '041261AAAAEDCBA9');
  assert.equal(encryptPinBlock('1234', '5555555551234567', TEST_KEY), '230B4C43B8BA2C5C');
  // ISO-0 leaves out the check digit: the always-ask-PIN test card has the same block.
  assert.equal(encryptPinBlock('1234', '5555555551234561', TEST_KEY), '230B4C43B8BA2C5C');
});

void test('agrees with main/processor/pin-block.ts for several PINs, PANs and keys', () => {
  const pans = [
    '4111111111111111',
    '5555555555554444',
    '4000000000000002',
    '340000000000009',
    '6011000990139424',
    '123456789012',
    '4000000000000000006',
  ];
  const pins = ['1234', '0000', '9999', '12345', '987654', '1234567890', '000000000000'];
  const keys = [TEST_KEY, '0F1E2D3C4B5A69788796A5B4C3D2E1F0', 'abcdefabcdefabcd1234567890abcdef'];
  for (const key of keys) {
    for (const pan of pans) {
      for (const pin of pins) {
        const ours = encryptPinBlock(pin, pan, key);
        assert.equal(clearPinBlock(pin, pan), gatewayClearBlock(pin, pan), `clear block ${pin.length}-digit PIN, PAN ${pan.slice(-4)}`);
        assert.equal(
          ours,
          gatewayEncrypt(pin, pan, Buffer.from(key, 'hex')),
          `encrypted block ${pin.length}-digit PIN, PAN ${pan.slice(-4)}`,
        );
        assert.equal(decryptPinBlock(ours, pan, Buffer.from(key, 'hex')), pin, 'the gateway reads the PIN back');
        assert.match(ours, /^[0-9A-F]{16}$/);
      }
    }
  }
});

void test('refuses malformed PINs, PANs and keys without echoing them', () => {
  for (const pin of ['123', '1234567890123', '12a4', '']) {
    assert.throws(
      () => encryptPinBlock(pin, '4111111111111111', TEST_KEY),
      (error: Error) => !error.message.includes(pin || '§'),
    );
  }
  for (const pan of ['41111111111', '41111111111111111111', '4111-1111-1111-1111']) {
    assert.throws(
      () => encryptPinBlock('1234', pan, TEST_KEY),
      (error: Error) => !error.message.includes(pan),
    );
  }
  for (const key of ['0123456789ABCDEF', `${TEST_KEY}00`, 'XYZ3456789ABCDEFFEDCBA9876543210']) {
    assert.throws(
      () => encryptPinBlock('1234', '4111111111111111', key),
      (error: Error) => !error.message.includes(key),
    );
  }
});
