/** The owner's sign-in page. */
export function LoginPage() {
  return (
    <main className="mx-auto max-w-md p-8">
      <h1 className="text-2xl font-bold text-white">Login to your account</h1>
    </main>
  );
}
