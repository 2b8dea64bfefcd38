// The account page: log in, sign up (then the recovery codes, shown once), reset a password
// with a code, and, logged in, log out (here or everywhere), change the password, new codes.
import { loadCatalog, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const lang = document.body.dataset.lang || "en";

// Why a request was refused, by the server's code, in the page's language.
function refusal(body, status) {
  const words = {
    bad_login: t("Wrong username or password."),
    too_many_attempts: t("Too many failed attempts. Try again in a few minutes."),
    too_many_signups: t("Too many new accounts from your address. Try again later."),
    username_taken: t("That username is taken."),
    username_length: t("A username has 2 to 20 characters."),
    username_invisible: t("A username cannot hold invisible characters or characters that change the direction of the text."),
    username_characters: t("A username holds letters, digits and _ - . only, and at least one letter."),
    username_separators: t("Put _ - . between letters or digits, one at a time."),
    username_scripts: t("Write a username in one script."),
    username_digits: t("Use digits of one kind in a username."),
    username_reserved: t("That username is reserved."),
    password_length: t("A password has 8 to 256 characters."),
    password_username: t("A password cannot be the username."),
    password_common: t("That password is too easy to guess."),
    bad_code: t("That recovery code is not valid for this account."),
    wrong_password: t("That is not your password."),
    csrf: t("This page is out of date; reload it."),
  };
  return (body && words[body.code]) || t("That did not work (error {status}).", { status: status });
}

async function post(path, body) {
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
  } catch (_) {
    return { ok: false, error: t("The server could not be reached.") };
  }
  let data = null;
  try { data = await r.json(); } catch (_) { /* no body */ }
  return r.ok ? { ok: true, data } : { ok: false, error: refusal(data, r.status) };
}

// Where to go once logged in: back to the page that sent us here (a rated game's invite),
// if it is a page of this site, else home.
function home() {
  const next = new URLSearchParams(location.search).get("next") || "";
  let target = `/?lang=${lang}`;
  try {
    const url = new URL(next, location.href);
    if (next.startsWith("/") && url.origin === location.origin) target = url.pathname + url.search;
  } catch (_) { /* home it is */ }
  location.href = target;
}

function showCodes(codes, then) {
  $("code-list").innerHTML = "";
  for (const code of codes) {
    const li = document.createElement("li");
    li.textContent = code;
    $("code-list").appendChild(li);
  }
  for (const part of document.querySelectorAll("main > :not(#codes)")) part.hidden = true;
  $("codes").hidden = false;
  $("codes").focus();
  $("codes-save").onclick = () => {
    const blob = new Blob([codes.join("\n") + "\n"], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "frontlines-recovery-codes.txt";
    a.click();
    URL.revokeObjectURL(a.href);
  };
  $("codes-done").onclick = then;
}

function on(id, handler) {
  const el = $(id);
  if (el) el.addEventListener(el.tagName === "FORM" ? "submit" : "click", handler);
}

on("login", async (ev) => {
  ev.preventDefault();
  $("login-error").textContent = "";
  const r = await post("/api/account/login", { username: $("login-name").value, password: $("login-password").value });
  if (!r.ok) { $("login-error").textContent = r.error; $("login-password").value = ""; return; }
  home();
});

on("signup", async (ev) => {
  ev.preventDefault();
  $("signup-error").textContent = "";
  const r = await post("/api/account/signup", { username: $("signup-name").value, password: $("signup-password").value });
  if (!r.ok) { $("signup-error").textContent = r.error; return; }
  $("signup-password").value = "";
  showCodes(r.data.codes, home);
});

on("reset", async (ev) => {
  ev.preventDefault();
  $("reset-error").textContent = "";
  const r = await post("/api/account/reset", { username: $("reset-name").value, code: $("reset-code").value, password: $("reset-password").value });
  if (!r.ok) { $("reset-error").textContent = r.error; return; }
  home();
});

on("logout", async () => {
  const r = await post("/api/account/logout");
  if (!r.ok) { $("account-error").textContent = r.error; return; }
  home();
});

on("logout-all", async () => {
  if (!confirm(t("Log out on every device, this one too?"))) return;
  const r = await post("/api/account/logout-all");
  if (!r.ok) { $("account-error").textContent = r.error; return; }
  home();
});

on("change-password", async (ev) => {
  ev.preventDefault();
  $("pw-done").textContent = "";
  const r = await post("/api/account/password", { password: $("pw-current").value, new_password: $("pw-new").value });
  $("pw-current").value = "";
  if (!r.ok) { $("pw-done").textContent = r.error; return; }
  $("pw-new").value = "";
  // the session was renewed (and every other device logged out): this page's token changed
  location.reload();
});

on("renew-codes", async (ev) => {
  ev.preventDefault();
  const r = await post("/api/account/codes", { password: $("renew-password").value });
  $("renew-password").value = "";
  if (!r.ok) { $("account-error").textContent = r.error; return; }
  showCodes(r.data.codes, () => location.reload());
});

await loadCatalog();
