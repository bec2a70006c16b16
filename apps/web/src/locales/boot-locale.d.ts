/** The first-render subset of a locale (locale-boot-plugin.ts). */
declare module 'virtual:boot-locale/*' {
  const strings: { [key: string]: unknown };
  export default strings;
}
