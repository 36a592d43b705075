/** The public portfolio page. */
export function HomePage() {
  return (
    <main id="home" className="mx-auto max-w-3xl p-8">
      <h1 className="text-4xl font-bold text-white">Portfolio</h1>
      <p>A full-stack web developer&apos;s portfolio.</p>
    </main>
  );
}
