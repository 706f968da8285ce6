// Strict readers for the reporters' formats, so that tests check structure, not substrings: a TAP 13
// parser, and an XML well-formedness checker that builds a small tree. (Both formats are narrow enough that
// a strict reader of the whole grammar the reporters may produce is shorter than a dependency.)

export interface TapPoint {
  ok: boolean;
  number: number;
  description: string;
  /** The YAML block's top-level keys, values parsed as JSON (the reporter writes JSON values). */
  diagnostic?: Record<string, unknown>;
}

export function parseTap(text: string): { plan: number; points: TapPoint[]; comments: string[] } {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines[0] !== 'TAP version 13')
    throw new Error(`line 1: expected "TAP version 13", got ${JSON.stringify(lines[0])}`);
  const plan = /^1\.\.(\d+)$/.exec(lines[1] ?? '');
  if (!plan) throw new Error(`line 2: expected a plan 1..N, got ${JSON.stringify(lines[1])}`);
  const points: TapPoint[] = [];
  const comments: string[] = [];
  for (let index = 2; index < lines.length; index++) {
    const line = lines[index]!;
    const point = /^(not )?ok (\d+)(?: - (.*))?$/.exec(line);
    if (point) {
      const number = Number(point[2]);
      if (number !== points.length + 1) throw new Error(`line ${index + 1}: test ${number} out of sequence`);
      points.push({ ok: !point[1], number, description: point[3] ?? '' });
      continue;
    }
    if (line === '  ---') {
      const last = points.at(-1);
      if (
        !last ||
        lines[index - 1] !==
          `${last.ok ? 'ok' : 'not ok'} ${last.number}${last.description ? ` - ${last.description}` : ''}`
      )
        throw new Error(`line ${index + 1}: a YAML block must follow a test line`);
      const diagnostic: Record<string, unknown> = {};
      for (index++; lines[index] !== '  ...'; index++) {
        const inner = lines[index];
        if (inner === undefined) throw new Error('unterminated YAML block');
        const entry = /^ {2}( *)(- )?([a-z]+):(?: (.*))?$/.exec(inner);
        if (!entry) throw new Error(`line ${index + 1}: not a YAML mapping line: ${JSON.stringify(inner)}`);
        const value = entry[4] === undefined ? undefined : JSON.parse(entry[4]);
        if (entry[1] === '' && !entry[2]) diagnostic[entry[3]!] = value;
      }
      last.diagnostic = diagnostic;
      continue;
    }
    if (line.startsWith('#')) {
      comments.push(line.slice(1).trim());
      continue;
    }
    throw new Error(`line ${index + 1}: not TAP: ${JSON.stringify(line)}`);
  }
  if (points.length !== Number(plan[1])) throw new Error(`plan says ${plan[1]} tests, found ${points.length}`);
  return { plan: Number(plan[1]), points, comments };
}

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Parses well-formed XML 1.0 (elements, attributes, text, entities, comments, an XML declaration); throws at the first error. */
export function parseXml(xml: string): XmlElement {
  let at = 0;
  const fail = (message: string): never => {
    throw new Error(`XML offset ${at}: ${message}`);
  };
  const skipSpace = () => {
    while (/[ \t\r\n]/.test(xml[at] ?? '')) at++;
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(xml);
    if (!match) return fail('expected a name');
    at += match[0].length;
    return match[0];
  };
  const decode = (raw: string): string => {
    if (/[<]/.test(raw)) fail('raw < in character data');
    return raw.replace(/&([^;]*);|&/g, (_whole, entity: string | undefined) => {
      if (entity === undefined) return fail('raw & in character data');
      if (ENTITIES[entity]) return ENTITIES[entity]!;
      const code = /^#x([0-9a-fA-F]+)$/.exec(entity)?.[1] ?? /^#(\d+)$/.exec(entity)?.[1];
      if (code === undefined) return fail(`unknown entity &${entity};`);
      return String.fromCodePoint(entity.startsWith('#x') ? parseInt(code, 16) : Number(code));
    });
  };
  const misc = () => {
    for (;;) {
      skipSpace();
      if (xml.startsWith('<!--', at)) {
        const end = xml.indexOf('-->', at);
        if (end < 0) fail('unterminated comment');
        at = end + 3;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (xml[at] !== '<') fail('expected <');
    at++;
    const node: XmlElement = { name: name(), attributes: {}, children: [], text: '' };
    for (;;) {
      const before = at;
      skipSpace();
      if (xml.startsWith('/>', at)) {
        at += 2;
        return node;
      }
      if (xml[at] === '>') {
        at++;
        break;
      }
      if (at === before) fail('expected whitespace before an attribute');
      const key = name();
      if (key in node.attributes) fail(`duplicate attribute ${key}`);
      skipSpace();
      if (xml[at] !== '=') fail('expected =');
      at++;
      skipSpace();
      const quote = xml[at];
      if (quote !== '"' && quote !== "'") fail('expected a quoted attribute value');
      const end = xml.indexOf(quote!, at + 1);
      if (end < 0) fail('unterminated attribute value');
      node.attributes[key] = decode(xml.slice(at + 1, end));
      at = end + 1;
    }
    for (;;) {
      const next = xml.indexOf('<', at);
      if (next < 0) fail(`unclosed <${node.name}>`);
      node.text += decode(xml.slice(at, next));
      at = next;
      if (xml.startsWith('</', at)) {
        at += 2;
        const closing = name();
        if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
        skipSpace();
        if (xml[at] !== '>') fail('expected >');
        at++;
        return node;
      }
      if (xml.startsWith('<!--', at)) {
        misc();
        continue;
      }
      node.children.push(element());
    }
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated XML declaration');
    at = end + 2;
  }
  misc();
  const root = element();
  misc();
  if (at !== xml.length) fail('content after the root element');
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml))
    throw new Error('a character XML 1.0 does not allow');
  return root;
}
