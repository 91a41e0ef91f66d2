/**
 * Text that shrinks to fit its box instead of being cut: an amount stays whole on every screen size,
 * up to the largest one the gateway takes (999,999,999.99). The element keeps its style sheet's font
 * size while the text fits; otherwise the size goes down (not below `minPx`) until it fits. It fits
 * again when the text changes or the box gets wider or narrower. The element needs a width that does
 * not grow with its text (a block, or `overflow: hidden` in a grid or flex row) and `white-space: nowrap`.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';

export function useFitText<T extends HTMLElement>(text: string, minPx = 14): RefObject<T | null> {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    let fittedWidth = -1;
    const fit = () => {
      element.style.fontSize = '';
      fittedWidth = element.clientWidth;
      let size = parseFloat(getComputedStyle(element).fontSize);
      for (let step = 0; step < 8 && element.scrollWidth > element.clientWidth && size > minPx; step += 1) {
        size = Math.max(minPx, Math.floor(size * (element.clientWidth / element.scrollWidth) * 4) / 4 - 0.25);
        element.style.fontSize = `${size}px`;
      }
    };
    fit();
    // Only a change of width refits: the height changes with the font size and would loop.
    const observer = new ResizeObserver(() => {
      if (element.clientWidth !== fittedWidth) fit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, minPx]);
  return ref;
}

/** A paragraph of one line (an amount) that shrinks to fit. */
export function FitLine({ text, className }: { text: string; className: string }) {
  const ref = useFitText<HTMLParagraphElement>(text);
  return (
    <p ref={ref} className={`${className} fit-line`}>
      {text}
    </p>
  );
}

/** A total's value in a `.total` box (today's sales, the day's report): shrinks to fit rather than being cut. */
export function TotalValue({ text }: { text: string }) {
  const ref = useFitText<HTMLElement>(text, 12);
  return <dd ref={ref}>{text}</dd>;
}
