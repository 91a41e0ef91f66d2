/**
 * Status tags of the back office: explicit words, with a tone as a second cue (every tone keeps
 * 4.5:1 contrast on its background): ok, waiting, in progress, a warning, bad, or over.
 */
export type Tone = 'ok' | 'wait' | 'info' | 'warn' | 'bad' | 'off';

export const toneClass = (tone: Tone) => `bo-tag bo-tag-${tone}`;
