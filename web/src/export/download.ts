// Saving files from the page: CSV text, charts as SVG or PNG, the topology
// canvas as PNG. Uses a temporary <a download> so browsers (and the
// end-to-end test) see a real download.

/** Starts a download of `data` as `name`. */
export function download(name: string, data: Blob) {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads text as a CSV file. */
export function downloadCsv(name: string, text: string) {
  download(name, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}

/** The markup of an <svg> with its computed styles inlined enough to stand alone. */
export function svgMarkup(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute('width', String(Math.round(width)));
  clone.setAttribute('height', String(Math.round(height)));
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = 'text{font-family:system-ui,sans-serif;font-size:11px;fill:#222} .domain,.tick line{stroke:#555}';
  clone.insertBefore(style, clone.firstChild);
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', 'white');
  clone.insertBefore(bg, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

/** Downloads the <svg> with this id as an SVG file. */
export function downloadSvg(id: string, name: string) {
  const svg = document.getElementById(id) as SVGSVGElement | null;
  if (!svg) throw new Error(`no chart with id ${id}`);
  download(name, new Blob([svgMarkup(svg)], { type: 'image/svg+xml' }));
}

/** Downloads the <svg> with this id rendered to PNG at twice its size. */
export async function downloadSvgAsPng(id: string, name: string) {
  const svg = document.getElementById(id) as SVGSVGElement | null;
  if (!svg) throw new Error(`no chart with id ${id}`);
  const { width, height } = svg.getBoundingClientRect();
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svgMarkup(svg)], { type: 'image/svg+xml' }));
  await new Promise<void>((ok, bad) => {
    img.onload = () => ok();
    img.onerror = () => bad(new Error('the chart could not be rendered to PNG'));
    img.src = url;
  });
  const c = document.createElement('canvas');
  c.width = Math.round(width * 2);
  c.height = Math.round(height * 2);
  const ctx = c.getContext('2d')!;
  ctx.scale(2, 2);
  ctx.drawImage(img, 0, 0);
  URL.revokeObjectURL(url);
  await downloadCanvas(c, name);
}

/** Downloads a canvas as PNG. */
export function downloadCanvas(c: HTMLCanvasElement, name: string): Promise<void> {
  return new Promise((ok, bad) =>
    c.toBlob((b) => {
      if (!b) return bad(new Error('the picture could not be encoded'));
      download(name, b);
      ok();
    }, 'image/png'),
  );
}
