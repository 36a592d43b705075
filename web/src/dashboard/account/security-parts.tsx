/** A section's last failure, read out as it appears. */
export function SectionAlert({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="field-error mt-2">
      {error}
    </p>
  ) : null;
}

/** A small status line, read out politely. */
export function SectionStatus({ text }: { text: string | null }) {
  return text ? (
    <p role="status" className="mt-2 text-sm text-green-300">
      {text}
    </p>
  ) : null;
}
