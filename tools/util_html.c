/*
 * util_html.c - `otvar specimen FONT --html DIR` (shape.h: spec_html): a web page to look at a
 * variable font in a browser. DIR/index.html holds its CSS and script inline (no network); the
 * font sits beside it (as the sfnt, or WOFF2) behind an @font-face. A slider per axis drives
 * font-variation-settings of every sample; buttons set the named instances; the page shows the
 * sample of the font's own script, those of its other scripts, a waterfall and a grid of the
 * characters the cmap maps. The fragment sets the sliders and a plain view for screenshots:
 * index.html#wght=700,wdth=80&size=96&text=Hamburg&only=sample (tests/web/specimen_html.sh).
 */
#include "cli.h"
#include "shape.h"
#include "woff.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_GRID 600 /* characters in the glyph grid */

/* Text for HTML: & < > " ' escaped. */
static void esc(FILE *f, const char *s)
{
  for (; *s; s++) switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default: fputc(*s, f);
    }
}

/* An axis tag for CSS and HTML ids: printable ASCII but quote and backslash (a tag of other
 * bytes is shown as '?'; font-variation-settings then ignores it). */
static void tag_str(uint32_t tag, char out[5])
{
  otv_tag_to_string(tag, out);
  for (int i = 0; i < 4; i++)
    if (out[i] < 0x20 || out[i] > 0x7E || out[i] == '"' || out[i] == '\\' || out[i] == '\'' ||
        out[i] == '<' || out[i] == '>' || out[i] == '&')
      out[i] = '?';
}

static const char page_css[] =
    "body{font-family:sans-serif;margin:24px;color:#000;background:#fff}\n"
    ".vf{font-family:'Specimen',sans-serif;font-variation-settings:normal}\n"
    ".controls{display:grid;grid-template-columns:max-content 320px max-content;gap:4px 12px;"
    "align-items:center;margin:12px 0}\n"
    ".controls output{font-variant-numeric:tabular-nums}\n"
    "#sample{font-size:64px;line-height:1.3;margin:16px 0;white-space:nowrap;overflow:hidden}\n"
    ".script{font-size:32px;margin:8px 0}\n"
    ".waterfall div{white-space:nowrap;overflow:hidden}\n.script{overflow-wrap:anywhere}\n"
    ".grid{display:flex;flex-wrap:wrap;gap:2px}\n"
    ".grid span{width:56px;height:64px;font-size:36px;display:flex;align-items:center;"
    "justify-content:center;border:1px solid #ddd}\n"
    "h2{font-size:14px;color:#666;margin:20px 0 6px}\n"
    /* the plain view of the fragment's only=sample: the sample alone, black on white */
    "body.only>*{display:none}\nbody.only>#sample{display:block;margin:0;padding:40px;"
    "line-height:1.5}\n";

static const char page_js[] =
    "const axes=[...document.querySelectorAll('input[data-tag]')];\n"
    "function apply(){\n"
    "  const s=axes.map(a=>'\"'+a.dataset.tag+'\" '+a.value).join(', ');\n"
    "  for(const a of axes)document.getElementById('v-'+a.id).value=a.value;\n"
    "  for(const e of document.querySelectorAll('.vf'))e.style.fontVariationSettings=s||'normal';\n"
    "  document.getElementById('fvs').textContent=s||'normal';\n"
    "}\n"
    "function set(vals){for(const a of axes)if(a.dataset.tag in vals)a.value=vals[a.dataset.tag];"
    "apply();}\n"
    "for(const a of axes)a.addEventListener('input',apply);\n"
    "for(const b of document.querySelectorAll('button[data-coords]'))"
    "b.addEventListener('click',()=>set(JSON.parse(b.dataset.coords)));\n"
    "function fromHash(){\n"
    "  const v={};let only=null,size=null,text=null;\n"
    "  for(const part of location.hash.slice(1).split(/[&,]/)){\n"
    "    const [k,x]=part.split('=');if(x===undefined)continue;\n"
    "    const key=decodeURIComponent(k);\n"
    "    if(key==='only')only=x;else if(key==='size')size=parseFloat(x);\n"
    "    else if(key==='text')text=decodeURIComponent(x);else "
    "v[(key+'    ').slice(0,4)]=parseFloat(x);\n"
    "  }\n"
    "  document.body.classList.toggle('only',only==='sample');\n"
    "  if(size)document.getElementById('sample').style.fontSize=size+'px';\n"
    "  if(text!==null)document.getElementById('sample').textContent=text;\n"
    "  set(v);\n"
    "}\n"
    "window.addEventListener('hashchange',fromHash);\n"
    "fromHash();\n"
    "document.fonts.ready.then(()=>document.body.dataset.ready='1');\n";

static int write_page(FILE *f, const otv_face *face, const char *font_file, int woff2,
                      const char *sample, const shp_sample *scripts, unsigned script_count)
{
  otv_face_info info;
  otv_face_get_info(face, &info);
  char family[128];
  if (otv_face_name(face, 16, family, sizeof family, NULL, NULL) &&
      otv_face_name(face, 1, family, sizeof family, NULL, NULL))
    snprintf(family, sizeof family, "%s", font_file);
  fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>", f);
  esc(f, family);
  fputs(" - otvar specimen</title>\n<style>\n@font-face{font-family:'Specimen';src:url('", f);
  esc(f, font_file);
  fprintf(f, "') format('%s')", woff2 ? "woff2" : "truetype");
  /* the whole weight and width ranges: the browser must not synthesize bold or stretch */
  otv_axis axes[64];
  unsigned n = info.axis_count < 64 ? info.axis_count : 64;
  otv_face_axes(face, 0, &n, axes);
  for (unsigned a = 0; a < n; a++) {
    if (axes[a].tag == OTV_TAG('w', 'g', 'h', 't'))
      fprintf(f, ";font-weight:%g %g", axes[a].min_value, axes[a].max_value);
    if (axes[a].tag == OTV_TAG('w', 'd', 't', 'h'))
      fprintf(f, ";font-stretch:%g%% %g%%", axes[a].min_value, axes[a].max_value);
  }
  fputs("}\n", f);
  fputs(page_css, f);
  fputs("</style></head>\n<body>\n<h1>", f);
  esc(f, family);
  fputs("</h1>\n<div class=\"controls\">\n", f);
  for (unsigned a = 0; a < n; a++) {
    char tag[5], name[96] = "";
    tag_str(axes[a].tag, tag);
    otv_face_name(face, axes[a].name_id, name, sizeof name, NULL, NULL);
    double span = axes[a].max_value - axes[a].min_value;
    double step = span > 0 ? pow(10, floor(log10(span)) - 2) : 1;
    fprintf(f, "<label for=\"ax%u\">%s ", a, tag);
    esc(f, name);
    fprintf(f,
            "</label><input type=\"range\" id=\"ax%u\" data-tag=\"%s\" min=\"%g\" max=\"%g\" "
            "step=\"%g\" value=\"%g\"><output id=\"v-ax%u\">%g</output>\n",
            a, tag, axes[a].min_value, axes[a].max_value, step, axes[a].default_value, a,
            axes[a].default_value);
  }
  fputs("</div>\n<div>font-variation-settings: <code id=\"fvs\">normal</code></div>\n", f);
  if (info.instance_count) {
    fputs("<h2>Named instances</h2>\n<div>\n", f);
    for (unsigned i = 0; i < info.instance_count && i < 200; i++) {
      otv_named_instance ni;
      unsigned one = 1;
      otv_face_named_instances(face, i, &one, &ni);
      char name[128] = "";
      if (!one || otv_face_name(face, ni.subfamily_name_id, name, sizeof name, NULL, NULL))
        snprintf(name, sizeof name, "instance %u", i);
      double coords[64];
      otv_face_named_instance_coords(face, i, coords, 64, NULL);
      fputs("<button data-coords='{", f);
      for (unsigned a = 0; a < n; a++) {
        char tag[5];
        tag_str(axes[a].tag, tag);
        fprintf(f, "%s\"%s\":%g", a ? "," : "", tag, coords[a]);
      }
      fputs("}'>", f);
      esc(f, name);
      fputs("</button>\n", f);
    }
    fputs("</div>\n", f);
  }
  fputs("<div id=\"sample\" class=\"vf\">", f);
  esc(f, sample);
  fputs("</div>\n", f);
  for (unsigned k = 1; k < script_count; k++) {
    fputs("<h2>", f);
    esc(f, scripts[k].name);
    fputs("</h2>\n<div class=\"vf script\">", f);
    esc(f, scripts[k].text);
    fputs("</div>\n", f);
  }
  fputs("<h2>Waterfall</h2>\n<div class=\"waterfall\">\n", f);
  static const int sizes[] = {12, 16, 20, 24, 32, 40, 48, 64, 96};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    fprintf(f, "<div class=\"vf\" style=\"font-size:%dpx\">", sizes[k]);
    esc(f, sample);
    fputs("</div>\n", f);
  }
  fputs("</div>\n<h2>Characters</h2>\n<div class=\"grid vf\">", f);
  unsigned shown = 0;
  for (uint32_t cp = 0x21; cp < 0x30000 && shown < MAX_GRID; cp++) {
    if ((cp >= 0x7F && cp < 0xA1) || (cp >= 0xD800 && cp < 0xE000) || cp == 0xAD) continue;
    if (!otv_face_glyph_for_char(face, cp, 0)) continue;
    fprintf(f, "<span title=\"U+%04X\">&#x%X;</span>", (unsigned)cp, (unsigned)cp);
    shown++;
  }
  fputs("</div>\n<script>\n", f);
  fputs(page_js, f);
  fputs("</script>\n</body></html>\n", f);
  return ferror(f) ? -1 : 0;
}

int spec_html(const char *cmd, const char *font_path, const otv_face *face, const char *dir,
              int woff2, int force, const char *sample, const shp_sample *scripts,
              unsigned script_count)
{
  if (cli_is_std(font_path)) {
    cli_usage_error(cmd, "--html needs a font file (the page loads it beside itself), not "
                         "standard input");
    return OTV_EXIT_USAGE;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "otvar: %s: cannot create %s: %s\n", cmd, dir, strerror(errno));
    return OTV_EXIT_FONT;
  }
  size_t len = 0;
  uint8_t *sfnt = cli_load_sfnt(font_path, &len);
  if (!sfnt) return OTV_EXIT_FONT;
  otv_face_info info;
  otv_face_get_info(face, &info);
  const char *name = woff2                              ? "font.woff2"
                     : info.flavour == OTV_FLAVOUR_GLYF ? "font.ttf"
                                                        : "font.otf";
  uint8_t *data = sfnt;
  size_t data_len = len;
  int rc = OTV_EXIT_FONT;
  char *font_out = NULL, *page_out = NULL;
  if (woff2) {
    char msg[160] = "";
    uint8_t *web = NULL;
    size_t wlen = 0;
    if (woff2_encode(sfnt, len, &web, &wlen, msg, sizeof msg)) {
      fprintf(stderr, "otvar: %s: %s\n", cmd, msg);
      goto done;
    }
    data = web;
    data_len = wlen;
  }
  size_t dl = strlen(dir);
  font_out = malloc(dl + 32);
  page_out = malloc(dl + 32);
  if (!font_out || !page_out) {
    fprintf(stderr, "otvar: %s: out of memory\n", cmd);
    goto done;
  }
  snprintf(font_out, dl + 32, "%s/%s", dir, name);
  snprintf(page_out, dl + 32, "%s/index.html", dir);
  rc = cli_write_file(cmd, font_out, font_path, force, data, data_len);
  if (rc) goto done;
  cli_out o;
  rc = cli_out_open(cmd, page_out, font_path, force, &o);
  if (rc) goto done;
  int ok = write_page(o.f, face, name, woff2, sample, scripts, script_count) == 0;
  rc = cli_out_close(&o, ok) || !ok ? OTV_EXIT_FONT : OTV_EXIT_OK;
done:
  if (data != sfnt) free(data);
  free(sfnt);
  free(font_out);
  free(page_out);
  return rc;
}
