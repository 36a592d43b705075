/**
 * A reader of the token in a link e-mailed to the owner (a reset link's, a notice's sign-out
 * link's): the token is read from the address's fragment, which browsers never send to a server,
 * and the fragment is then cleared from the address bar and the history. The reader keeps the
 * token for a second render of the same page.
 */
export function fragmentToken(): () => string {
  let taken = '';
  return () => {
    const hash = window.location.hash.slice(1);
    if (hash) {
      taken = decodeURIComponent(hash);
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
    return taken;
  };
}
