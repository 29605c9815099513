// `?raw` imports are bundled as the file's text: by Vite (electron-vite, vitest) and by scripts/build-cli.mjs's plugin
declare module '*.py?raw' {
  const text: string;
  export default text;
}
