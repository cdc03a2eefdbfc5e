/** CSS modules (Vite builds them; Jest maps them to identity-obj-proxy). */
declare module '*.module.css' {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
