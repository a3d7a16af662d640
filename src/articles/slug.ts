import { randomBytes, randomUUID } from 'node:crypto';

/** The official Ukrainian transliteration table (semantics §6.7). */
const UKRAINIAN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'h',
  ґ: 'g',
  д: 'd',
  е: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'y',
  і: 'i',
  ї: 'yi',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ю: 'yu',
  я: 'ya',
};

const SLUG_BASE_MAX = 240;

/** The title part of a slug: transliterated, ASCII, lower-case, `-` separated, at most 240 characters. */
export function slugBase(title: string): string {
  const transliterated = [...title.toLowerCase()].map((char) => UKRAINIAN[char] ?? char).join('');
  return transliterated
    .normalize('NFKD')
    .replace(/[^\p{ASCII}]/gu, '')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, SLUG_BASE_MAX)
    .replace(/[-_]+$/, '');
}

/** `<base>-<6 random hex>` (just the suffix when the base is empty). */
export function slugCandidate(
  title: string,
  random: () => string = () => randomBytes(3).toString('hex'),
): string {
  const base = slugBase(title);
  return base ? `${base}-${random()}` : random();
}

/**
 * A fresh slug: a new random suffix on each collision with `taken`; after 5
 * collisions a random UUID.
 */
export async function generateSlug(
  title: string,
  taken: (slug: string) => Promise<boolean>,
  random?: () => string,
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const candidate = slugCandidate(title, random);
    if (!(await taken(candidate))) return candidate;
  }
  return randomUUID();
}
