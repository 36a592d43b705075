/** A part of a string table, made by `scripts/string-table-parts.mjs`: `./en.json?nav,hero&part`. */
declare module '*&part' {
  const texts: Readonly<Record<string, string>>;
  export default texts;
}
