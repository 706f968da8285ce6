// A host's claims checked against the event catalogue: no host may read a channel from an event that cannot
// carry it (a block where the event never blocks, context where it takes none, a rewrite or an ask elsewhere
// than where Claude Code takes one).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canBlock, EVENTS, type EventName } from '../../src/events.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import type { Channels } from '../../src/hosts/types.ts';

/** What the catalogue lets an event carry, channel by channel. */
const CAN: Readonly<Record<keyof Channels, (event: EventName) => boolean>> = {
  blocks: canBlock,
  context: (event) => EVENTS[event].specificFields.includes('additionalContext'),
  rewrites: (event) =>
    EVENTS[event].specificFields.includes('updatedInput') || EVENTS[event].family === 'permissionRequest',
  asks: (event) => EVENTS[event].permissionDecisions?.includes('ask') === true,
  // Failing closed is a block the host itself makes on a failed hook.
  failsClosed: canBlock,
};

/** Every claim of every host: host, host event, Claude Code event, channel. */
function claims(): string[][] {
  return Object.values(HOSTS).flatMap((host) =>
    Object.entries(host.events).flatMap(([hostEvent, def]) =>
      [
        [def.event, def] as const,
        ...Object.entries(def.also ?? {}).map(([event, channels]) => [event as EventName, channels!] as const),
      ].flatMap(([event, channels]) =>
        (Object.keys(CAN) as (keyof Channels)[])
          .filter((channel) => channels[channel] !== undefined)
          .map((channel) => [host.name, hostEvent, event, channel]),
      ),
    ),
  );
}

test('every channel a host claims is one the catalogue gives its event', () => {
  const all = claims();
  assert.ok(all.length > 100, `only ${all.length} claims found`);
  assert.deepEqual(
    all.filter(([, , event, channel]) => !CAN[channel as keyof Channels](event as EventName)),
    [],
  );
});

test('the check refuses what the catalogue rules out', () => {
  assert.equal(CAN.blocks('SessionStart'), false);
  assert.equal(CAN.context('PermissionRequest'), false);
  assert.equal(CAN.rewrites('PostToolUse'), false);
  assert.equal(CAN.asks('Stop'), false);
  assert.equal(CAN.blocks('PostToolUseFailure'), true);
});

test('a host that speaks Claude Code reads a block wherever the catalogue says the event can block', () => {
  const claude = HOSTS.factory.events;
  for (const [name, def] of Object.entries(claude))
    assert.equal(def.blocks === true, canBlock(def.event), `factory ${name}: blocks is the catalogue's`);
});
