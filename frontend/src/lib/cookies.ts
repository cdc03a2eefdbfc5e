/** Browser cookies readable by scripts (the session cookie itself is HttpOnly). */
export function clearCookies(...names: string[]) {
  for (const name of names) {
    document.cookie = `${name}=; Max-Age=0; path=/`;
  }
}
