/** The locale chunks of locale-plugin.ts: `virtual:locale/<lang>/boot` and `virtual:locale/<lang>/<root>`. */
declare module 'virtual:locale/*' {
  /** The boot sections (boot module only). */
  export const strings: { [section: string]: unknown };
  /** Root key → loader of its extra sections (boot module only). */
  export const chunks: { [root: string]: () => Promise<{ default: { [section: string]: unknown } }> };
  /** A root's extra sections (root modules only). */
  const sections: { [section: string]: unknown };
  export default sections;
}
