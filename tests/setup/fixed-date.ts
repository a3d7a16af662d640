/** Every timer stays real (the database driver and the app use them); only `Date` is faked. */
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/** Fixes `Date` at `now` until `jest.useRealTimers()`. */
export function fixDate(now: number | Date): void {
  jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now });
}
