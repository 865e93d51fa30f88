// Runs in the document's head, before anything is painted (an external file because the CSP
// forbids inline scripts; the server inlines it with its exact hash in script-src).
// 1. Applies the saved theme (or the system preference), so a dark-mode user never sees a white flash.
// 2. Starts the signed-in calls the server listed for this page in #coffer-early-calls
//    (`[{path, body}]`, docs/decisions/0043-signed-in-first-call-from-the-document.md) with the
//    token under `accessToken` (src/lib/storage.ts), so they travel beside the JavaScript instead of
//    after it. Each is kept in `window.__cofferEarlyCalls` as {path, body (JSON), token, response}:
//    src/lib/api-client.ts takes the response of the same path, body and token once, instead of
//    sending the call again. A failed request leaves `response` null (the client then sends it).
//    When the list names the answer's largest image (`image`, a dotted path into the envelope's
//    `data`), it is preloaded as soon as the answer is in, before the page has rendered its <img>.
//    Body fields named in `session` (field -> dotted path, e.g. user_id -> user.id) are taken from
//    the persisted auth state (`coffer-auth`, src/features/auth/stores/auth-store.ts); a call whose
//    field is missing there is not started, and so is a call whose `requires` (dotted paths, e.g.
//    user.id: product §6 fetches My Collections only when a user id exists) are not all there.
(function () {
  try {
    var saved = localStorage.getItem('coffer-theme');
    var dark = saved === 'dark' || (saved !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch {
    /* storage unavailable: keep the light theme */
  }
  try {
    var list = document.getElementById('coffer-early-calls');
    var token = list && localStorage.getItem('accessToken');
    if (!token || typeof fetch !== 'function') return;
    var session = null;
    try {
      session = JSON.parse(localStorage.getItem('coffer-auth') || 'null');
      session = session && session.state;
    } catch {
      session = null;
    }
    window.__cofferEarlyCalls = JSON.parse(list.textContent)
      .map(function (call) {
        var needs = call.requires || [];
        for (var i = 0; i < needs.length; i++) {
          var had = pick(session, needs[i]);
          if (typeof had !== 'string' && typeof had !== 'number') return null;
        }
        var fields = {};
        for (var key in call.session || {}) {
          var value = pick(session, call.session[key]);
          if (typeof value !== 'string' && typeof value !== 'number') return null;
          fields[key] = value;
        }
        var body = JSON.stringify(Object.assign({}, call.body, fields));
        var response = fetch(call.path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: 'Bearer ' + token },
          body: body,
        })
          .then(function (r) {
            if (call.image && r.ok) preloadImage(r.clone(), call.image);
            return r;
          })
          .catch(function () {
            return null;
          });
        return { path: call.path, body: body, token: token, response: response };
      })
      .filter(Boolean);
  } catch {
    /* no list, no storage or a malformed list: the app sends its calls itself */
  }

  function pick(value, where) {
    where.split('.').forEach(function (key) {
      value = value == null ? value : value[key];
    });
    return value;
  }

  function preloadImage(response, where) {
    response
      .json()
      .then(function (envelope) {
        var url = pick(envelope && envelope.code === 10000 ? envelope.data : null, where);
        if (typeof url !== 'string' || !/^(https?:\/\/|\/(?!\/))/.test(url)) return;
        var link = document.createElement('link');
        link.rel = 'preload';
        link.setAttribute('as', 'image');
        link.href = url;
        link.setAttribute('fetchpriority', 'high');
        document.head.appendChild(link);
      })
      .catch(function () {
        /* not JSON: the page shows the call's error */
      });
  }
})();
