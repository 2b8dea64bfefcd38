// Every request of this page that changes something carries the session's CSRF token, which
// the server puts in <meta name="csrf-token"> for a logged-in page (web/guard.py refuses a
// POST, PUT, PATCH or DELETE that sends the session cookie without it). A classic script,
// loaded before the page's modules, so every fetch of every page goes through it.
(() => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (!meta || !window.fetch) return;
  const token = meta.getAttribute("content");
  const plain = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const request = input instanceof Request ? input : null;
    const method = ((init && init.method) || (request ? request.method : "GET")).toUpperCase();
    const url = new URL(request ? request.url : String(input), location.href);
    if (url.origin !== location.origin || ["GET", "HEAD", "OPTIONS"].includes(method)) return plain(input, init);
    const headers = new Headers((init && init.headers) || (request ? request.headers : undefined));
    headers.set("X-CSRF-Token", token);
    return plain(input, { ...(init || {}), headers });
  };
})();
