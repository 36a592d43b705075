/**
 * The contact form. Placeholder until the contact feature: labelled fields with the
 * browser's own validation.
 */
export function ContactForm() {
  return (
    <form className="grid gap-4" aria-label="Contact form" onSubmit={(event) => event.preventDefault()}>
      <label className="grid gap-1">
        <span>Name</span>
        <input name="name" required autoComplete="name" maxLength={100} />
      </label>
      <label className="grid gap-1">
        <span>Email</span>
        <input name="email" type="email" required autoComplete="email" maxLength={254} />
      </label>
      <label className="grid gap-1">
        <span>Subject</span>
        <input name="subject" required maxLength={200} />
      </label>
      <label className="grid gap-1">
        <span>Message</span>
        <textarea name="message" required rows={5} maxLength={5000} />
      </label>
      <button type="submit">Send Message</button>
    </form>
  );
}
