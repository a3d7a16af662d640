import { ConfigError, loadConfig } from '../../src/config';
import { heapGrowthFlag } from '../../src/heap-policy';

describe('heap growth policy', () => {
  it("leaves the heap's growth to V8 by default", () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(0);
  });

  it('holds the heap to the given percent above its live data', () => {
    expect(heapGrowthFlag(50, [], '')).toBe('--heap-growing-percent=50');
  });

  it('reads HEAP_GROWTH_PERCENT, and refuses what is not a percent in 0..1000', () => {
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent).toBe(100);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: 'half' })).toThrow(/HEAP_GROWTH_PERCENT/);
  });

  it('leaves V8 its own growth for 0', () => {
    expect(heapGrowthFlag(0, [], '')).toBeUndefined();
  });

  it.each([
    ['the command line', ['--heap-growing-percent=20'], ''],
    ['the command line, with underscores', ['--heap_growing_percent=20'], ''],
    ['NODE_OPTIONS', [], '--max-old-space-size=512 --heap-growing-percent=20'],
  ])('leaves a growth given on %s as it is', (_where, execArgv, nodeOptions) => {
    expect(heapGrowthFlag(50, execArgv, nodeOptions)).toBeUndefined();
  });

  it('still applies beside other V8 flags', () => {
    expect(heapGrowthFlag(30, ['--max-old-space-size=512'], '--enable-source-maps')).toBe(
      '--heap-growing-percent=30',
    );
  });
});
