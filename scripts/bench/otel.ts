// Rows 13–14: OpenTelemetry's cost. Not configured (OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES set, no
// endpoint), a no-op firing must be the no-op firing: nothing of OpenTelemetry is loaded. Configured, against a
// receiver on 127.0.0.1 in its own process (the bench's runs block this one), what a firing pays for its span.
import { spawn } from 'node:child_process';
import { type Command, compare, peakMemoryMB } from './measure.ts';
import type { Row } from './report.ts';

const RECEIVER = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/x-protobuf' }); s.end(); }); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;

export async function otelRows(fire: Command, name: string, node: string, quick: boolean): Promise<Row[]> {
  const runs = (full: number) => (quick ? Math.max(3, Math.ceil(full / 5)) : full);
  const receiver = spawn(node, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      receiver.stdout.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
      receiver.once('exit', (code) => reject(new Error(`the OTLP receiver exited ${code}`)));
    });
    const withEnv = (label: string, env: Record<string, string>): Command => ({
      ...fire,
      label,
      env: { ...fire.env, ...env },
    });
    const named = { OTEL_SERVICE_NAME: 'guard', OTEL_RESOURCE_ATTRIBUTES: 'team=security' };
    const rows: Row[] = [];
    const notConfigured = withEnv('not configured', named);
    const unchanged = compare(notConfigured, fire, runs(40));
    rows.push({
      scenario: '13',
      command: `${name}: no-op fire, OpenTelemetry not configured (OTEL_SERVICE_NAME set, no endpoint)`,
      baseline: 'no-op fire, no OTEL_ variable',
      ...unchanged,
      target: '≤ 1.05x',
      met: unchanged.ratio <= 1.05,
      ...memory(notConfigured),
    });
    const configured = withEnv('exporting', { ...named, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    const exporting = compare(configured, fire, runs(20));
    rows.push({
      scenario: '14',
      command: `${name}: no-op fire exporting its span (http/protobuf, receiver on 127.0.0.1)`,
      baseline: 'no-op fire, no OTEL_ variable',
      ...exporting,
      note: `+${(exporting.medianMs - exporting.baselineMedianMs).toFixed(1)} ms per firing`,
      ...memory(configured),
    });
    return rows;
  } finally {
    receiver.kill();
  }
}

function memory(command: Command): Pick<Row, 'peakMemoryMB'> {
  const peak = peakMemoryMB(command);
  return peak === undefined ? {} : { peakMemoryMB: peak };
}
