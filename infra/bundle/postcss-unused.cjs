// Stands in for postcss in the function bundles (infra/bundle/aliases.ts). sanitize-html loads postcss
// only to parse `style` attributes, and our sanitizer options allow no `style` attribute and turn
// style parsing off (shared/domain/text.ts), so it is never called: bundling it cost 87 KB (postcss
// and source-map-js) of every function that writes text.
'use strict';
exports.parse = () => {
  throw new Error('postcss is not bundled: style attributes are not allowed (shared/domain/text.ts)');
};
