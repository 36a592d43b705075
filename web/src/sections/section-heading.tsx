import type { SectionText } from '../content/document.generated';

/** A section's heading and the line below it (none when empty): the owner's words, `sections.<name>` of the document. */
export function SectionHeading({ id, text }: { id: string; text: SectionText }) {
  return (
    <>
      <h2 id={id} className="section-title">
        {text.title}
      </h2>
      {text.lead && <p className="lead mt-4">{text.lead}</p>}
    </>
  );
}
