// A Vite (Rolldown) plugin for the renderer's build: React as one ES module.
//
// React is CommonJS. Rolldown gives each ES module that imports it a copy of its exports of its own
// (`__toESM`: a bound getter defined for each of React's ~45 exports, in each of the ~40 modules
// that import it), made while the entry is evaluated, and every hook call then goes through a
// getter. In a cold open's CPU profile that copying was two fifths of the entry's run, and in a
// new tab the entry ran 7.5 ms sooner without it (bench/README.md, "The bundler's copies of React").
// Here every `import … from 'react'` of an ES module (ours and the libraries') is given one ES
// module instead, which takes React's exports once, as constants. `require('react')` (react-dom's
// own) is left alone, so there is still one React, as the shim itself imports it.
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

export const REACT_AS_ESM = '\0inbox-react-as-esm';

/** The shim's source: React's default (its `module.exports`) and each named export, read once. */
export function reactShimSource(names: readonly string[]): string {
  const named = names.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
  return `import * as React from 'react';\nexport default React.default;\nexport const { ${named.join(', ')} } = React;\n`;
}

export function reactAsEsm(): Plugin {
  return {
    name: 'inbox-react-as-esm',
    // The dev server pre-bundles React its own way, and the tests load it from node_modules.
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer, options) {
      // Not a `require` (react-dom's, CommonJS): that one stays React's own module.
      if (source !== 'react' || importer === REACT_AS_ESM || (options.kind !== undefined && options.kind !== 'import-statement')) return null;
      return REACT_AS_ESM;
    },
    load(id) {
      if (id !== REACT_AS_ESM) return null;
      // As React's development build lists them: production's and two more (`act`,
      // `captureOwnerStack`), which are then undefined, as they are in React's production build.
      return reactShimSource(Object.keys(createRequire(import.meta.url)('react') as object));
    },
  };
}
