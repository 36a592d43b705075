import { readFileSync } from 'node:fs';

const SUFFIX = '&part';

/**
 * A Vite plugin: `import texts from './en.json?nav,hero&part'` is the part of a flat string table
 * whose keys are `nav`, `hero` or start with `nav.` or `hero.`. A chunk then carries only the
 * English texts of the sections in it, and the string table stays one file (which the server reads
 * whole).
 */
export function stringTableParts() {
  return {
    name: 'string-table-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null;
      const [path, query] = source.split('?');
      const resolved = await this.resolve(path, importer, { skipSelf: true });
      return resolved ? `\0string-table:${resolved.id}?${query}` : null;
    },
    load(id) {
      if (!id.startsWith('\0string-table:')) return null;
      const [file, query] = id.slice('\0string-table:'.length).split('?');
      const prefixes = query.slice(0, -SUFFIX.length).split(',');
      this.addWatchFile(file);
      const table = JSON.parse(readFileSync(file, 'utf8'));
      const part = Object.fromEntries(
        Object.entries(table).filter(([key]) => prefixes.some((prefix) => key === prefix || key.startsWith(`${prefix}.`))),
      );
      if (Object.keys(part).length === 0) this.error(`${file} has no key under ${prefixes.join(', ')}`);
      return `export default ${JSON.stringify(part)};`;
    },
  };
}
