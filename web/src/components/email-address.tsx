/**
 * An e-mail address that may wrap only before its `@`, never inside a word ("alex.morgan" /
 * "@example.com", not "example.co" / "m"). Its container keeps `overflow-wrap: anywhere` as
 * the last resort for a part longer than the line.
 */
export function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}
