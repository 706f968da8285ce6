// The published shape of the inspection commands' JSON documents (`peri-hooks schema <name>`). Each command builds
// its document from its schema (report/shape.ts), so the keys, their order and null-for-absent come from here.
// Every key is required; null (or [] for a list) says the run had nothing there. New keys go at the end.
import * as z from 'zod';
import { PROJECT_DIR_RULES, type ProjectDirFrom } from '../config/sources.ts';
import { SCHEMA_VERSION } from '../errors.ts';
import { EVENT_NAMES } from '../events.ts';
import { HOST_NAMES } from '../hosts/types.ts';
import { sessionStateSchema } from '../session/schema.ts';
import { asyncResultSchema, diagnosticSchema, hookIdentityShape, reportDocumentSchema, viaSchema } from './schema.ts';

const text = z.string();
const count = z.int().nonnegative();
const version = z.literal(SCHEMA_VERSION);

function sourceSchema() {
  return z.strictObject({
    layer: text.describe('managed, user, project, local, flag or plugin.'),
    file: text,
    status: z.enum(['loaded', 'missing', 'invalid', 'inapplicable']),
    hooks: count,
  });
}

/** `validate --output json`. */
export function validateDocumentSchema() {
  return z.strictObject({
    schemaVersion: version,
    ok: z.boolean().describe('False when there are errors (with --strict, warnings too).'),
    errors: count,
    warnings: count,
    notes: count,
    hooks: count.describe('Hooks loaded from all sources.'),
    sources: z.array(sourceSchema()),
    diagnostics: z.array(
      diagnosticSchema().extend({
        makesSourceInapplicable: z.boolean().describe('The entry keeps its whole file from applying.'),
      }),
    ),
  });
}

/** `list --output json`. */
export function listDocumentSchema() {
  return z.strictObject({
    schemaVersion: version,
    events: z
      .array(
        z.strictObject({
          event: z.enum(EVENT_NAMES),
          count,
          hooks: z.array(
            z.strictObject({
              ...hookIdentityShape(),
              line: z.int().positive().nullable().describe('The line of the hook in its file.'),
              disabledReason: text.nullable().describe('The policy switch that turns the hook off.'),
              via: viaSchema(),
              trust: hookTrustSchema()
                .nullable()
                .describe('Project and local hooks: their content against the approvals.'),
            }),
          ),
        }),
      )
      .describe('Every event, in catalogue order.'),
    sources: z.array(sourceSchema()),
  });
}

/** `explain <event> --output json`. */
export function explainDocumentSchema() {
  return z.strictObject({
    schemaVersion: version,
    event: z.enum(EVENT_NAMES),
    matcherValue: text.nullable().describe('What the matchers are tested against (the tool name, the source, ...).'),
    projectDir: text,
    projectDirFrom: z.enum(Object.keys(PROJECT_DIR_RULES) as [ProjectDirFrom, ...ProjectDirFrom[]]),
    noHooksFound: z
      .strictObject({ searched: z.array(text) })
      .nullable()
      .describe('Set when no source has a hook for the event: nothing is enforced.'),
    hooks: z.array(
      z.strictObject({
        ...hookIdentityShape(),
        status: z.enum(['would-run', 'skipped']),
        skipReason: text.nullable(),
        skipDetail: text.nullable(),
        timeoutMs: z.number().positive().nullable().describe('The time limit a hook that would run gets.'),
        via: viaSchema(),
        trust: hookTrustSchema().nullable().describe('Project and local hooks: their content against the approvals.'),
      }),
    ),
    chains: z
      .array(z.array(text))
      .describe('Ids of the hooks that would run: chains run in parallel, the hooks of one chain in order.'),
    mcpServers: z
      .array(
        z.strictObject({
          server: text,
          scope: text.nullable(),
          file: text.nullable(),
          pointer: text.nullable(),
          transport: z.enum(['stdio', 'http', 'sse']).nullable(),
          target: text.nullable().describe('The command line or the URL.'),
          missing: text.nullable().describe('Why the server is not found; null when it is.'),
          fix: text.nullable(),
        }),
      )
      .describe("The MCP servers the event's mcp_tool hooks name."),
    warnings: z.array(diagnosticSchema()),
  });
}

/** `doctor --output json`. */
export function doctorDocumentSchema() {
  return z.strictObject({
    schemaVersion: version,
    ok: z.boolean().describe('False when a check failed: the guard would not work as configured.'),
    checks: z.array(
      z.strictObject({
        id: text.describe(
          'Per kind of check: runtime, registration, artefact, server, policy, startup, state, target, ...',
        ),
        status: z.enum(['pass', 'warn', 'fail']),
        title: text,
        detail: text,
        fix: text.nullable(),
      }),
    ),
  });
}

/** `state <session_id>`: the session state file as peri-hooks reads it, with the file's path first. */
export function stateDocumentSchema() {
  const state = sessionStateSchema().shape;
  const once = state.once.unwrap().valueType.shape;
  return z.strictObject({
    schemaVersion: version,
    file: text,
    version: state.version.describe('The version of the state file.'),
    sessionId: state.sessionId,
    updatedAt: state.updatedAt,
    once: z.record(z.string(), z.strictObject({ ...once, pid: z.int().nullable(), host: text.nullable() })),
    stopBlocks: state.stopBlocks.unwrap(),
    results: z.array(asyncResultSchema()),
  });
}

/** `fire --host <agent> --output json`: the host's answer, and the report of every firing it took. */
export function hostReportDocumentSchema() {
  return z.strictObject({
    schemaVersion: version,
    host: z.enum(HOST_NAMES),
    stdout: text.describe('What the host reads on stdout.'),
    stderr: text,
    exitCode: z.int(),
    reports: z.array(reportDocumentSchema()),
  });
}

export type HostReportDocument = z.output<ReturnType<typeof hostReportDocumentSchema>>;

/** The trust state of one project or local hook (trust, list, explain, doctor). */
export function hookTrustSchema() {
  return z.strictObject({
    status: z
      .enum(['approved', 'new', 'changed', 'unapprovable'])
      .describe(
        'Against the approvals in the user state folder: approved content, never approved, changed since, or content that can never be approved.',
      ),
    changes: z.array(text).describe('What differs from the approval, or why it cannot be approved.'),
    scripts: z
      .array(
        z.strictObject({
          file: text.describe('Relative to the project.'),
          sha256: text.nullable(),
          problem: text
            .nullable()
            .describe('Why it cannot be pinned: it leads out of the project, or cannot be hashed.'),
        }),
      )
      .describe(
        'The project files the hook runs, as read now: the files its command names, the files beside one that names its own path ($0, a relative import) or imports a Python module beside it, and the project files a shell script sources or runs by a path.',
      ),
    notes: z
      .array(text)
      .describe(
        'What neither changes nor refuses the approval: a script that loads files beside it in an unpinned folder.',
      ),
  });
}

/** `trust --output json`. */
export function trustDocumentSchema() {
  return z.strictObject({
    schemaVersion: version,
    projectDir: text,
    action: z.enum(['approve', 'diff', 'revoke']),
    approvals: text.describe('The file in the user state folder that holds the approvals of this project.'),
    approvedAt: text
      .nullable()
      .describe('When the approvals were recorded (after this run); null when there are none.'),
    hooks: z.array(
      z.strictObject({
        ...hookIdentityShape(),
        line: z.int().positive().nullable(),
        event: z.enum(EVENT_NAMES),
        trust: hookTrustSchema(),
      }),
    ),
  });
}
