// Bundles src/index.js and the Graphviz WebAssembly (inlined by @hpcc-js/wasm-graphviz) into
// one ES module, widgets/static/widget.js, so the widget fetches nothing at run time.
//
//   npm run build          one build (what `make` runs)
//   npm run build -- --watch   rebuild on change (with ANYWIDGET_HMR=1 in the kernel)
import * as esbuild from "esbuild";

const options = {
  entryPoints: ["src/index.js"],
  outfile: "../static/widget.js",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2020"],
  minify: true,
  legalComments: "eof",
  banner: {
    js: "/* minigrad_widgets front end (built by widgets/js; do not edit). Bundles " +
      "@hpcc-js/wasm-graphviz (Apache-2.0) with Graphviz compiled to WebAssembly (EPL-1.0). */",
  },
  logLevel: "warning",
};

if (process.argv.includes("--watch")) {
  const context = await esbuild.context({ ...options, logLevel: "info" });
  await context.watch();
} else {
  await esbuild.build(options);
}
