// `audit report --html`: one self-contained page from a real log (real firings and entries a hostile payload
// wrote), every text from the log escaped, hooks linked to their settings file and line; opened in a real
// headless Chromium, it renders without a console error or a request beyond itself, and its charts are drawn.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { AuditEntry } from '../../src/audit/entry.ts';
import { appendEntry } from '../../src/audit/log.ts';
import { CHROMIUM, chromiumPresent, colourCounts, decodePng, openPage } from '../helpers/chromium.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { skipWithout } from '../helpers/required.ts';

const HOSTILE = '</code></td><script>document.title="owned"</script><img src=x onerror=alert(1)>';

describe('audit report --html', () => {
  let project: Project;
  let policy: string;
  let log: string;
  let page: string;
  before(async () => {
    project = makeProject();
    policy = project.write(
      'policy.json',
      `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "case \\"$(cat)\\" in *push*) echo 'no push' >&2; exit 2;; esac" }
        ]
      }
    ]
  }
}
`,
    );
    log = join(project.dir, 'audit.jsonl');
    for (const command of ['git push origin main', 'ls']) {
      const fired = await runCli(
        ['fire', 'PreToolUse', '--settings', policy, '--setting-sources', '', '--no-state', '--audit', log],
        {
          stdin: project.input('PreToolUse.tool_name-Bash', { tool_input: { command } }),
          env: project.env(),
          cwd: project.dir,
        },
      );
      assert.ok(fired.code === 0 || fired.code === 2, fired.stderr);
    }
    // Days of firings, some of them from a payload that wants to run script in the page.
    const hook = (decided: boolean, durationMs: number, file = policy): AuditEntry['hooks'][number] => ({
      layer: 'flag',
      file,
      pointer: '/hooks/PreToolUse/0/hooks/0',
      matcher: 'Bash',
      type: 'command',
      label: `check ${HOSTILE}`,
      status: 'ran',
      outcome: decided ? 'blocking' : 'success',
      exitCode: decided ? 2 : 0,
      durationMs,
      ...(decided ? { decided: true as const } : {}),
    });
    for (let index = 0; index < 40; index++) {
      const decision = (['deny', 'allow', 'none', 'block', 'ask'] as const)[index % 5]!;
      const stops = decision !== 'allow' && decision !== 'none';
      const problem = await appendEntry(
        { file: log },
        {
          v: 1,
          time: `2026-11-${String(20 + (index % 6)).padStart(2, '0')}T1${index % 10}:00:00.000Z`,
          version: '0.1.0',
          host: 'claude',
          session: `session-${index % 3}`,
          event: 'PreToolUse',
          cwd: project.dir,
          tool: index % 4 === 0 ? HOSTILE : index % 2 === 0 ? 'Bash' : 'Write',
          summary: index % 3 === 0 ? HOSTILE : 'rm -rf build',
          decision,
          ...(stops ? { reason: `refused: ${HOSTILE}` } : {}),
          durationMs: 20 + index,
          hooks: [hook(stops, 10 + index), hook(false, 5, `/tmp/"><script>alert(2)</script>.json`)],
        },
      );
      assert.equal(problem, undefined);
    }
    page = join(project.dir, 'report.html');
    const written = await runCli(['audit', 'report', '--html', page, log], { env: project.env(), cwd: project.dir });
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /wrote .*report\.html \(42 firings\)/);
  });
  after(() => project.cleanup());

  test('the page is self-contained, escapes every text of the log, and links each hook to its file and line', () => {
    const html = readFileSync(page, 'utf8');
    assert.doesNotMatch(
      html,
      /<script|<img|<link|@import|url\(|<[a-z]+[^>]*\son[a-z]+=/i,
      'nothing of the log becomes markup',
    );
    assert.doesNotMatch(html, /(src|href)="(?!file:)/, 'no reference to anything but settings files');
    assert.doesNotMatch(html, /https?:\/\//, 'no network address at all');
    assert.match(html, /&lt;\/code&gt;&lt;\/td&gt;&lt;script&gt;document\.title=&quot;owned&quot;&lt;\/script&gt;/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.match(html, /The hash chain holds: 42 entries/);
    // The hook that decided is linked to where it stands: line 7 of the policy.
    assert.ok(html.includes(`<a href="${pathToFileURL(policy).href}#L7"`), 'a link to policy.json line 7');
    assert.ok(html.includes(`<code>${policy}:7</code>`));
    // The real firings are there: the blocked push.
    assert.match(html, /git push origin main/);
    assert.match(html, /no push/);
  });

  test('a broken chain is said at the top of the page', async () => {
    const lines = readFileSync(log, 'utf8').split('\n');
    const tampered = project.write('tampered.jsonl', [lines[0], ...lines.slice(2)].join('\n'));
    const out = join(project.dir, 'tampered.html');
    assert.equal((await runCli(['audit', 'report', '--html', out, tampered], { env: project.env() })).code, 0);
    assert.match(readFileSync(out, 'utf8'), /class="broken">The hash chain is broken: .*tampered\.jsonl:2/);
    const missing = await runCli(['audit', 'report', log], { env: project.env() });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /audit report needs the page to write/);
  });

  const skip = skipWithout(CHROMIUM.split('/').at(-1)!, chromiumPresent(), 'apt-get install chromium');
  test('in a real headless Chromium: no console error, no request beyond the page, the charts drawn', {
    skip,
  }, async () => {
    const browser = await openPage(pathToFileURL(page).href);
    try {
      assert.deepEqual(browser.errors, []);
      assert.deepEqual(browser.requests, [pathToFileURL(page).href]);
      assert.equal(await browser.evaluate('document.title'), `peri-hooks audit: ${log}`);
      assert.equal(await browser.evaluate('document.querySelectorAll("script, img").length'), 0);
      const charts = await browser.evaluate<
        Array<{ x: number; y: number; width: number; height: number; bars: number }>
      >(
        `[...document.querySelectorAll('svg.chart')].map((svg) => { const box = svg.getBoundingClientRect(); return { x: box.x, y: box.y + scrollY, width: box.width, height: box.height, bars: svg.querySelectorAll('rect').length }; })`,
      );
      assert.equal(charts.length, 2, 'the totals and the time chart');
      for (const chart of charts) {
        assert.ok(chart.width > 200 && chart.height > 50 && chart.bars >= 5, JSON.stringify(chart));
        const image = decodePng(
          await browser.screenshot({ x: chart.x, y: chart.y, width: chart.width, height: chart.height }),
        );
        const colours = colourCounts(image);
        // Each decision's colour is painted, on more than a stray pixel.
        for (const colour of ['#c62828', '#ef6c00', '#f9a825', '#2e7d32', '#90a4ae'])
          assert.ok((colours.get(colour) ?? 0) > 50, `${colour}: ${colours.get(colour) ?? 0} pixels`);
      }
      const whole = colourCounts(decodePng(await browser.screenshot()));
      assert.ok(whole.size > 20, `a page of ${whole.size} colours`);
    } finally {
      await browser.close();
    }
  });
});
