/**
 * A bar chart drawn by uPlot (canvas): one bar per category (an hour, a day, a payment type),
 * stacked from its parts in the order given (the first part at the bottom). The canvas is hidden
 * from assistive technology: every chart on the dashboard has the same figures as a table next to
 * it. Pointing at a bar shows its figures above the chart (`describe`).
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';

export interface BarPart {
  label: string;
  color: string;
  values: readonly number[];
}

interface BarChartProps {
  /** The categories' names under the bars. */
  labels: readonly string[];
  parts: readonly BarPart[];
  /** The y axis' numbers, e.g. `1.2k` or `30 EUR`. */
  formatAxis: (value: number) => string;
  /** The text for the bar pointed at. */
  describe: (index: number) => string;
  /** Counts: the y axis steps in whole numbers only. */
  whole?: boolean;
  height?: number;
}

const AXIS_COLOR = '#4f5b69';
const GRID_COLOR = '#e3e8ee';
const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', sans-serif";
/** Steps of a count axis: 1, 2, 5, 10, 20, 50, ... */
const WHOLE_STEPS = [1, 2, 5]
  .flatMap((step) => [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000].map((power) => step * power))
  .sort((a, b) => a - b);
/** The pointed bar's line while nothing is pointed at (no words). */
const NOTHING_POINTED = ' ';
/** Room one category name needs on the x axis, in CSS pixels. */
const LABEL_WIDTH = 58;

export function BarChart({ labels, parts, formatAxis, describe, whole = false, height = 200 }: BarChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const [pointed, setPointed] = useState<number | null>(null);
  const describeRef = useRef(describe);
  const axisRef = useRef(formatAxis);
  useEffect(() => {
    describeRef.current = describe;
    axisRef.current = formatAxis;
  });

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const count = labels.length;
    const xs = labels.map((_label, index) => index);
    // Stacked: the bar of part k reaches the sum of parts k..n; drawn tallest first, so each
    // shorter bar covers the bottom of the one before and every part shows as its own band.
    const reversed = [...parts].reverse();
    const stacks = reversed.map((_part, k) =>
      xs.map((index) => reversed.slice(k).reduce((sum, part) => sum + (part.values[index] ?? 0), 0)),
    );
    const bars = uPlot.paths.bars?.({ size: [0.72, 56], gap: 1, radius: 0.12 });
    const width = () => Math.max(240, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height,
        legend: { show: false },
        padding: [6, 8, 0, 0],
        cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
        scales: {
          x: { time: false, range: () => [-0.5, Math.max(count - 0.5, 0.5)] },
          y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
        },
        axes: [
          {
            stroke: AXIS_COLOR,
            font: FONT,
            size: 28,
            grid: { show: false },
            ticks: { show: false },
            // Whole categories only, as many as fit the width.
            splits: (plot) => {
              const step = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(plot.bbox.width / devicePixelRatio / LABEL_WIDTH))));
              return xs.filter((index) => index % step === 0);
            },
            values: (_plot, splits) => splits.map((index) => labels[index] ?? ''),
          },
          {
            stroke: AXIS_COLOR,
            font: FONT,
            size: 52,
            grid: { stroke: GRID_COLOR, width: 1 },
            ticks: { show: false },
            ...(whole ? { incrs: WHOLE_STEPS } : {}),
            values: (_plot, splits) => splits.map((value) => axisRef.current(value)),
          },
        ],
        series: [
          {},
          ...reversed.map((part) => ({
            label: part.label,
            fill: part.color,
            stroke: part.color,
            width: 0,
            points: { show: false },
            ...(bars ? { paths: bars } : {}),
          })),
        ],
        hooks: {
          setCursor: [(plot) => setPointed(plot.cursor.idx ?? null)],
        },
      },
      [xs, ...stacks],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, parts, height, whole]);

  return (
    <div className="bar-chart" aria-hidden="true">
      <p className="bar-chart-pointed">{pointed === null ? NOTHING_POINTED : describeRef.current(pointed)}</p>
      <div ref={host} className="bar-chart-canvas" style={{ minHeight: height }} />
    </div>
  );
}

/** The chart's key: which colour is which part. */
export function ChartKey({ parts }: { parts: readonly Pick<BarPart, 'label' | 'color'>[] }) {
  return (
    <ul className="chart-key" aria-hidden="true">
      {parts.map((part) => (
        <li key={part.label}>
          <span className="chart-key-swatch" style={{ background: part.color }} />
          {part.label}
        </li>
      ))}
    </ul>
  );
}
