/**
 * Charts to files: Vega-Lite compiles a spec to Vega, Vega renders it to SVG headless (renderer
 * 'none': no canvas, no browser), resvg rasterises the SVG to PNG with the system's fonts.
 */
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, TopLevelSpec } from 'vega-lite';

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** At twice the SVG's size, for sharp text on high-density screens. */
export function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
