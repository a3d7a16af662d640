import { isPlainObject } from '../common/validation/json-schema';

/** Limits of a whole article document (semantics #4/#5, §7.17). */
const DOCUMENT_MAX_NODES = 1000;
const DOCUMENT_MAX_DEPTH = 10;
const DOCUMENT_MAX_LENGTH = 65536;

type Node = Record<string, unknown>;

/** Where a node stands: which kinds its parent allows. */
type Place = 'block' | 'list' | 'li' | 'image_group' | 'table' | 'tr' | 'text_only';

const CONTAINERS = new Set(['p', 'blockquote', 'spoiler', 'spoiler_inline', 'lic']);
const HEADINGS = new Set(['h3', 'h4', 'h5']);
const LINK_TARGETS = new Set(['_parent', '_blank', '_self', '_top']);

function isValidUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isYoutubeUrl(value: unknown): boolean {
  if (!isValidUrl(value)) return false;
  return new URL(value).host.includes('youtube.com');
}

/** Only the listed keys (plus `id`, a string or null), the listed ones required. */
function hasKeys(node: Node, required: readonly string[], optional: readonly string[] = []): boolean {
  if ('id' in node && node.id !== null && typeof node.id !== 'string') return false;
  const allowed = new Set([...required, ...optional, 'id']);
  return required.every((key) => key in node) && Object.keys(node).every((key) => allowed.has(key));
}

const isTextNode = (node: Node): boolean =>
  hasKeys(node, ['text'], ['bold', 'italic']) &&
  typeof node.text === 'string' &&
  (node.bold === undefined || typeof node.bold === 'boolean') &&
  (node.italic === undefined || typeof node.italic === 'boolean');

const positiveInteger = (value: unknown): boolean =>
  value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 1);

/** Counts nodes while walking; fails fast on the first bad node. */
class Walker {
  nodes = 0;

  children(node: Node, place: Place, depth: number, max?: number): boolean {
    const children = node.children;
    if (!Array.isArray(children)) return false;
    if (max !== undefined && children.length > max) return false;
    return children.every((child) => this.node(child, place, depth + 1));
  }

  node(value: unknown, place: Place, depth: number): boolean {
    this.nodes += 1;
    if (this.nodes > DOCUMENT_MAX_NODES || depth > DOCUMENT_MAX_DEPTH || !isPlainObject(value)) return false;
    if (!('type' in value)) return (place === 'block' || place === 'text_only') && isTextNode(value);
    const type = value.type;
    if (typeof type !== 'string') return false;
    // Kinds that belong to one parent only, and parents that take one kind only.
    if (place === 'text_only') return false;
    if (place === 'list')
      return type === 'li' && hasKeys(value, ['type', 'children']) && this.children(value, 'li', depth);
    if (place === 'li')
      return type === 'lic' && hasKeys(value, ['type', 'children']) && this.children(value, 'block', depth);
    if (place === 'image_group') {
      return (
        type === 'image' &&
        hasKeys(value, ['type', 'url', 'children']) &&
        isValidUrl(value.url) &&
        this.children(value, 'text_only', depth, 1)
      );
    }
    if (place === 'table')
      return type === 'tr' && hasKeys(value, ['type', 'children']) && this.children(value, 'tr', depth);
    if (place === 'tr') {
      return (
        (type === 'td' || type === 'th') &&
        hasKeys(value, ['type', 'children'], ['colSpan', 'rowSpan']) &&
        positiveInteger(value.colSpan) &&
        positiveInteger(value.rowSpan) &&
        this.children(value, 'block', depth)
      );
    }
    return this.block(value, type, depth);
  }

  /** A node where any general kind may stand (the document's top level, containers, cells). */
  private block(node: Node, type: string, depth: number): boolean {
    if (CONTAINERS.has(type))
      return hasKeys(node, ['type', 'children']) && this.children(node, 'block', depth);
    if (HEADINGS.has(type))
      return hasKeys(node, ['type', 'children']) && this.children(node, 'text_only', depth, 1);
    switch (type) {
      case 'a':
        return (
          hasKeys(node, ['type', 'url', 'children'], ['target']) &&
          typeof node.url === 'string' &&
          (node.target === undefined || LINK_TARGETS.has(node.target as string)) &&
          this.children(node, 'block', depth)
        );
      case 'ul':
      case 'ol':
        return hasKeys(node, ['type', 'children']) && this.children(node, 'list', depth);
      case 'video':
        return (
          hasKeys(node, ['type', 'url', 'children']) &&
          isYoutubeUrl(node.url) &&
          this.children(node, 'text_only', depth, 1)
        );
      case 'image_group':
        return hasKeys(node, ['type', 'children']) && this.children(node, 'image_group', depth, 4);
      case 'table':
        return hasKeys(node, ['type', 'children']) && this.children(node, 'table', depth);
      default:
        // `li`, `tr`, `td`, `th` and `image` stand only inside their parents; anything else is unknown.
        return false;
    }
  }
}

/**
 * Whether `document` is a valid article document: a non-empty array of valid nodes,
 * at most 1000 nodes, nesting depth at most 10 (top-level nodes are at depth 1) and
 * `JSON.stringify(document)` at most 65,536 characters.
 */
export function isValidDocument(document: unknown): boolean {
  if (!Array.isArray(document) || document.length === 0) return false;
  if (JSON.stringify(document).length > DOCUMENT_MAX_LENGTH) return false;
  const walker = new Walker();
  return document.every((node) => walker.node(node, 'block', 1));
}

/** The `url` of every `image` node, in document order. */
export function imageUrls(document: readonly unknown[]): string[] {
  const urls: string[] = [];
  const visit = (value: unknown): void => {
    if (!isPlainObject(value)) return;
    if (value.type === 'image' && typeof value.url === 'string') urls.push(value.url);
    if (Array.isArray(value.children)) value.children.forEach(visit);
  };
  document.forEach(visit);
  return urls;
}

const PREVIEW_TEXT = 300;

/** Cuts `text` to fit `room` characters: at the last space within room − 3, trailing punctuation/spaces removed, `...` added. */
function cutText(text: string, room: number): string {
  const limit = Math.max(room - 3, 0);
  const head = text.slice(0, limit + 1);
  const space = head.lastIndexOf(' ');
  const kept = space >= 0 ? head.slice(0, space) : text.slice(0, limit);
  return `${kept.replace(/[\s\p{P}]+$/u, '')}...`;
}

/**
 * The article preview (§6.6): a copy of the document keeping text until 300
 * characters in total; the text node that crosses the limit is cut and ends with
 * `...`, and nothing after it is kept. Only the first `image_group` or `video` is kept.
 */
export function buildPreview(document: readonly unknown[]): unknown[] {
  let used = 0;
  let done = false;
  let mediaKept = false;

  const copy = (value: unknown): unknown | undefined => {
    if (done || !isPlainObject(value)) return undefined;
    if (!('type' in value)) {
      const text = typeof value.text === 'string' ? value.text : '';
      if (used + text.length <= PREVIEW_TEXT) {
        used += text.length;
        return { ...value };
      }
      done = true;
      return { ...value, text: cutText(text, PREVIEW_TEXT - used) };
    }
    if (value.type === 'image_group' || value.type === 'video') {
      if (mediaKept) return undefined;
      mediaKept = true;
      return structuredClone(value);
    }
    const children: unknown[] = [];
    for (const child of Array.isArray(value.children) ? value.children : []) {
      const kept = copy(child);
      if (kept !== undefined) children.push(kept);
      if (done) break;
    }
    return { ...value, children };
  };

  const preview: unknown[] = [];
  for (const node of document) {
    const kept = copy(node);
    if (kept !== undefined) preview.push(kept);
    if (done) break;
  }
  return preview;
}
