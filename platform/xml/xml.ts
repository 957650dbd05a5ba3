import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * XML read with a real parser (fast-xml-parser), namespace prefixes dropped: SEFAZ's answers use
 * default namespaces or any prefix they like, and element names are unique within each message.
 * Text stays text (a `cStat` of "100", a key of 44 digits): nothing is read as a number.
 */
const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false });

export class XmlError extends Error {}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (char) => escapes[char]);

/** Safe reads of a parsed document; a missing element throws with its path. */
export class XmlReader {
  constructor(private readonly value: unknown, private readonly path: string) {}

  static parse(text: string, what: string): XmlReader {
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new XmlError(`${what} is not well-formed XML (${valid.err.msg}, line ${valid.err.line})`);
    return new XmlReader(parser.parse(text) as unknown, what);
  }

  private child(name: string): unknown {
    return this.value && typeof this.value === 'object' ? (this.value as Record<string, unknown>)[name] : undefined;
  }

  has(name: string): boolean {
    return this.child(name) !== undefined;
  }

  /** The single child `name` (the first, when repeated). */
  at(name: string): XmlReader {
    const inner = this.child(name);
    if (inner === undefined) throw new XmlError(`${this.path}.${name} is missing`);
    return new XmlReader(Array.isArray(inner) ? inner[0] : inner, `${this.path}.${name}`);
  }

  /** Every child `name`, none when absent. */
  all(name: string): XmlReader[] {
    const inner = this.child(name);
    if (inner === undefined) return [];
    return (Array.isArray(inner) ? inner : [inner]).map((item, index) => new XmlReader(item, `${this.path}.${name}[${index}]`));
  }

  /** The element's text (an element with attributes keeps it under `#text`). */
  text(): string {
    const value = this.value && typeof this.value === 'object' ? (this.value as Record<string, unknown>)['#text'] : this.value;
    if (typeof value !== 'string') throw new XmlError(`${this.path} has no text`);
    return value.trim();
  }

  textOrNull(name: string): string | null {
    return this.has(name) ? this.at(name).text() : null;
  }

  attribute(name: string): string | null {
    const value = this.child(`@${name}`);
    return typeof value === 'string' ? value : null;
  }
}
