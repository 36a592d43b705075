/** The owner's private dashboard, loaded lazily in its own chunk. */
export function DashboardPage() {
  return (
    <main className="mx-auto max-w-5xl p-8">
      <h1 className="text-2xl font-bold text-white">Dashboard</h1>
    </main>
  );
}
