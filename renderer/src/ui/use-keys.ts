/**
 * Keyboard shortcuts of a screen. Off while a dialog is open, while typing in a field, and for
 * Enter/Space on a focused button or link (those activate the control itself).
 */
import { useEffect, useRef, type RefObject } from 'react';

/** Returns true when it handled the key (the event's default is then prevented). */
export type KeyHandler = (event: KeyboardEvent) => boolean;

export function dialogOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

function inField(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

function onControl(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('button, a[href], [role="button"], summary') !== null;
}

export function useKeys(handler: KeyHandler, active = true): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!active) return undefined;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (dialogOpen() || inField(event.target)) return;
      if ((event.key === 'Enter' || event.key === ' ') && onControl(event.target)) return;
      if (latest.current(event)) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [active]);
}

/** Moves focus to the element once it is mounted (screen changes put focus on their heading or main action). */
export function useAutoFocus<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
