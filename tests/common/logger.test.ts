import { type LogFormat } from '../../src/config';
import { createLogger } from '../../src/logger';

/** What one `info` line looks like in `format` (unset: chosen by `isTTY`). */
function lineIn(format: LogFormat | undefined, isTTY: boolean): string {
  const written: string[] = [];
  const log = createLogger(
    { logLevel: 'info', logFormat: format },
    { destination: { write: (line: string) => void written.push(line) }, isTTY },
  );
  log.info({ requestId: 'r-1' }, 'listening');
  expect(written).toHaveLength(1);
  return written[0];
}

describe('the log format', () => {
  it('is JSON lines where stdout is no terminal (pipes, files, collectors, CI)', () => {
    expect(JSON.parse(lineIn(undefined, false))).toMatchObject({
      level: 30,
      requestId: 'r-1',
      msg: 'listening',
    });
  });

  it('is readable lines on a terminal', () => {
    const line = lineIn(undefined, true);
    expect(() => JSON.parse(line)).toThrow();
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*listening/);
    expect(line).toContain('{"requestId":"r-1"}');
    expect(line).not.toContain('hostname');
  });

  it('follows LOG_FORMAT whatever stdout is', () => {
    expect(JSON.parse(lineIn('json', true))).toMatchObject({ msg: 'listening' });
    expect(() => JSON.parse(lineIn('pretty', false))).toThrow();
  });
});
