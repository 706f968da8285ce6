import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertHostAllowed, isMetadataHostName, judgeAddress, SsrfBlockedError } from '../../src/net/ssrf.ts';

// [address, allowed, range, embedded IPv4 (when judged through one)]
const ROWS: [string, boolean, string, string?][] = [
  // loopback and ordinary unicast pass
  ['127.0.0.1', true, 'loopback'],
  ['127.255.255.254', true, 'loopback'],
  ['::1', true, 'loopback'],
  ['8.8.8.8', true, 'unicast'],
  ['93.184.216.34', true, 'unicast'],
  ['2606:4700::1111', true, 'unicast'],
  // IPv4 ranges
  ['10.0.0.1', false, 'private'],
  ['10.255.255.255', false, 'private'],
  ['172.16.0.1', false, 'private'],
  ['172.31.255.255', false, 'private'],
  ['172.32.0.1', true, 'unicast'],
  ['192.168.0.1', false, 'private'],
  ['0.0.0.0', false, 'this_network'],
  ['0.1.2.3', false, 'this_network'],
  ['100.64.0.1', false, 'carrier_nat'],
  ['100.127.255.255', false, 'carrier_nat'],
  ['100.128.0.1', true, 'unicast'],
  ['169.254.0.1', false, 'link_local'],
  ['224.0.0.1', false, 'multicast'],
  ['239.255.255.250', false, 'multicast'],
  ['255.255.255.255', false, 'broadcast'],
  ['240.0.0.1', false, 'reserved'],
  ['192.0.2.1', false, 'reserved'],
  ['198.51.100.7', false, 'reserved'],
  ['203.0.113.9', false, 'reserved'],
  ['198.18.0.1', false, 'reserved'],
  ['192.0.0.8', false, 'reserved'],
  // cloud metadata
  ['169.254.169.254', false, 'metadata'],
  ['100.100.100.200', false, 'metadata'],
  ['168.63.129.16', false, 'metadata'],
  ['192.0.0.192', false, 'metadata'],
  ['fd00:ec2::254', false, 'metadata'],
  ['fd00:ec2::23', false, 'metadata'],
  ['fd20:ce::254', false, 'metadata'],
  ['fd00:c1::a9fe:a9fe', false, 'metadata'],
  ['fd00:a9fe:a9fe::1', false, 'metadata'],
  ['FD00:EC2:0:0:0:0:0:254', false, 'metadata'],
  // IPv6 ranges
  ['::', false, 'unspecified'],
  ['fe80::1', false, 'link_local'],
  ['fe80::1%eth0', false, 'link_local'],
  ['febf:ffff::1', false, 'link_local'],
  ['fc00::1', false, 'unique_local'],
  ['fd12:3456::1', false, 'unique_local'],
  ['ff02::1', false, 'multicast'],
  ['fec0::1', false, 'deprecated_site_local'],
  ['100::1', false, 'discard'],
  ['2001:db8::1', false, 'reserved'],
  ['3fff::1', false, 'reserved'],
  ['2001::1', false, 'teredo'],
  ['64:ff9b:1::a00:1', false, 'nat64'],
  ['4000::1', false, 'reserved'],
  // IPv4 embedded in IPv6: unwrapped and judged as IPv4
  ['::ffff:10.0.0.1', false, 'private', '10.0.0.1'],
  ['::ffff:a9fe:a9fe', false, 'metadata', '169.254.169.254'],
  ['::ffff:127.0.0.1', true, 'loopback', '127.0.0.1'],
  ['::ffff:8.8.8.8', true, 'unicast', '8.8.8.8'],
  ['::ffff:0.0.0.0', false, 'this_network', '0.0.0.0'],
  ['::ffff:0:10.0.0.1', false, 'private', '10.0.0.1'],
  ['::10.0.0.1', false, 'private', '10.0.0.1'],
  ['::192.168.1.1', false, 'private', '192.168.1.1'],
  ['::0.0.0.2', false, 'this_network', '0.0.0.2'],
  ['64:ff9b::a9fe:a9fe', false, 'metadata', '169.254.169.254'],
  ['64:ff9b::10.1.2.3', false, 'private', '10.1.2.3'],
  ['64:ff9b::100.64.0.1', false, 'carrier_nat', '100.64.0.1'],
  ['64:ff9b::8.8.8.8', true, 'unicast', '8.8.8.8'],
  ['2002:a9fe:a9fe::1', false, 'metadata', '169.254.169.254'],
  ['2002:c0a8:0101::1', false, 'private', '192.168.1.1'],
  ['2002:0808:0808::1', true, 'unicast', '8.8.8.8'],
  ['2001:470::5efe:a00:1', false, 'private', '10.0.0.1'],
  ['2001:470::200:5efe:c0a8:101', false, 'private', '192.168.1.1'],
  ['fe80::5efe:a9fe:a9fe', false, 'metadata', '169.254.169.254'],
  // 6to4 of a public address with an ISATAP id carrying a private one: every reading must pass
  ['2002:0808:0808::5efe:a00:1', false, 'private', '10.0.0.1'],
  // not an address in Node's form
  ['0x7f.0.0.1', false, 'invalid'],
  ['2130706433', false, 'invalid'],
  ['example.com', false, 'invalid'],
  ['', false, 'invalid'],
];

test(`judgeAddress: ${ROWS.length} addresses`, () => {
  assert.ok(ROWS.length >= 40);
  for (const [address, allowed, range, ipv4] of ROWS) {
    const verdict = judgeAddress(address);
    assert.equal(verdict.allowed, allowed, `${address} allowed`);
    assert.equal(verdict.range, range, `${address} range`);
    assert.equal(verdict.embedded?.ipv4, ipv4, `${address} embedded IPv4`);
  }
});

test('judgeAddress accepts bracketed IPv6 literals as URLs write them', () => {
  assert.equal(judgeAddress('[::ffff:a00:1]').range, 'private');
  assert.equal(judgeAddress('[::1]').allowed, true);
});

test('metadata host names: case-insensitive, trailing dots ignored', () => {
  const refused = [
    'metadata.google.internal',
    'METADATA.Google.Internal',
    'metadata.google.internal.',
    'metadata.goog',
    'metadata',
    'Metadata.',
    'instance-data',
    'instance-data.ec2.internal',
    'instance-data.us-west-2.compute.internal',
    'INSTANCE-DATA.eu-central-1.compute.internal..',
  ];
  for (const name of refused) assert.equal(isMetadataHostName(name), true, name);
  const allowed = [
    'metadata.example.com',
    'mymetadata',
    'instance-data.compute.internal',
    'google.internal',
    'localhost',
  ];
  for (const name of allowed) assert.equal(isMetadataHostName(name), false, name);
});

test('assertHostAllowed: literal addresses and metadata names, never DNS', () => {
  assert.doesNotThrow(() => assertHostAllowed('127.0.0.1'));
  assert.doesNotThrow(() => assertHostAllowed('[::1]'));
  assert.doesNotThrow(() => assertHostAllowed('example.com'), 'other names are judged after resolution');
  assert.throws(
    () => assertHostAllowed('[::ffff:a9fe:a9fe]'),
    (error: unknown) => {
      assert.ok(error instanceof SsrfBlockedError);
      assert.equal(error.range, 'metadata');
      assert.match(
        error.message,
        /^HTTP hook blocked: \[::ffff:a9fe:a9fe\] resolves to ::ffff:a9fe:a9fe \(metadata: IPv4 169\.254\.169\.254 in ipv4_mapped\)\./,
      );
      return true;
    },
  );
  assert.throws(
    () => assertHostAllowed('metadata.google.internal.'),
    /HTTP hook blocked: metadata\.google\.internal\. is a cloud metadata host name/,
  );
});

test('the refusal message names host, address and range, and the loopback exception', () => {
  const error = new SsrfBlockedError('evil.test', '10.0.0.1', judgeAddress('10.0.0.1'));
  assert.equal(
    error.message,
    'HTTP hook blocked: evil.test resolves to 10.0.0.1 (private). Loopback (127.0.0.1, ::1) is allowed for local dev.',
  );
});
