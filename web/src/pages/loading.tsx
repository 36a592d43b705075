/** Shown while a lazily loaded page arrives. */
export function LoadingPage() {
  return (
    <p role="status" className="p-8 text-center text-gray-300">
      Loading...
    </p>
  );
}
