/*
 * instance/inst.h - the instancer's state: where the instance is (instance/region.h: the pin),
 * the per-glyph results of the outline step and the tables being written; and the steps that
 * instance.c runs in order (each in its own file below instance.c, none calling another).
 */
#ifndef OTV_INSTANCE_INST_H
#define OTV_INSTANCE_INST_H

#include "face.h"
#include "core/sfnt.h"
#include "core/writer.h"
#include "instance/region.h"
#include "instance/tvs.h"

typedef struct otv_inst {
  otv_location *loc;
  const otv_face *face;
  const otv_alloc *al;
  otv_error *err;
  unsigned flags;                    /* OTV_INSTANCE_* */
  otv_pin pin;                       /* where: coordinates, axis order, kept axes */
  otv_ictx cx;                       /* {&pin, al, err}, what the format code takes */
  otv_f2dot14 pcoords[OTV_MAX_AXES]; /* partial: the pinned coordinates, kept axes at their new
                                        defaults (0 unless limited) */
  double lim_user[OTV_MAX_AXES][3];  /* kept axes: min, default, max (user) in the new fvar */
  uint32_t glyph_count;
  /* the outline step (glyf.c or cff.c): per-glyph metrics and boxes, maxp maxima */
  uint16_t *adv_w, *adv_h; /* glyph_count each (adv_h: only with vmtx) */
  int16_t *lsb, *tsb;
  int16_t (*bbox)[4];   /* xMin yMin xMax yMax per glyph */
  uint8_t *has_outline; /* numberOfContours != 0 */
  uint32_t max_points, max_contours, max_comp_points, max_comp_contours, max_comp_elements;
  uint16_t max_comp_depth;
  otv_buf glyf, loca, hmtx, vmtx;
  int16_t loca_format;
  uint16_t num_h_metrics, num_v_metrics;
  bool has_vmtx;
  bool cff1;       /* cff2 holds a CFF (version 1) table (instance/cff1.c) */
  bool cff1_names; /* ... name-keyed: the glyph names moved from post into it */
  /* the tables written anew (tables.c, names.c, layout.c, cff.c) */
  otv_buf head, hhea, vhea, maxp, os2, post, cvt, name, gdef, gpos, gsub, base, cff2, stat;
  /* partial instances: the variation tables (partial.c), gvar's glyph data from the glyf step */
  otv_buf gvar, cvar, fvar, avar, hvar, vvar, mvar;
  uint32_t *gvar_offs; /* glyph_count + 1 offsets into gvar_data */
  otv_buf gvar_data;
  otv_tvs_work tvs;                 /* the tuple stores' scratch (instance/tvs.h) */
  struct otv_part_remap *cff_remap; /* partial CFF2 with split regions (cff_partial.c) */
} otv_inst;

/* ---- the steps, in the order instance.c runs them ---- */

/* glyf + loca (+ hmtx/vmtx from phantom points) at the location (glyf.c). */
otv_status otv_inst_glyf(otv_inst *in);
/* CFF2 without VariationStore + hmtx/vmtx (cff.c). */
otv_status otv_inst_cff(otv_inst *in);
/* fvar, avar, gvar, cvar, HVAR, VVAR, MVAR of a partial instance (partial.c). */
otv_status otv_part_tables(otv_inst *in);
/* head/hhea/vhea/maxp/OS2/post/cvt (tables.c), then name (names.c). */
otv_status otv_inst_tables(otv_inst *in);
/* STAT with the axis values the instance keeps (stat.c; before names). */
otv_status otv_inst_stat(otv_inst *in);
otv_status otv_inst_names(otv_inst *in);
/* GDEF/GPOS/GSUB/BASE (layout.c). */
otv_status otv_inst_layout(otv_inst *in);

/* The normalized coordinate (F2Dot14, after avar, in the location's model) of user value u on
 * axis a, the other axes at the instance's location (instance.c). */
otv_status otv_inst_norm_one(otv_inst *in, unsigned a, double u, int16_t *f2);

/* ---- between cff.c and cff_partial.c ---- */
/* CFF2 (cff_partial.c): per VariationStore region (rc of them), -1 (its pinned factor is 0), 0
 * (no kept axis: folded into the defaults, times factor[r]), 1 (kept, times factor[r]) or 2
 * (on limited axes: a constant part folded, times factor[rc + r], the rest kept, times
 * factor[r]); factor has 2 x rc entries. A region that axis limits split into several is
 * OTV_E_UNSUPPORTED. Then one glyph's charstring for the partial instance (subroutines inlined,
 * blends rewritten) appended to out. */
otv_status otv_part_cff_modes(otv_inst *in, int8_t **mode, double **factor);
/* When axis limits split regions, otv_part_cff_modes leaves in->cff_remap instead: per
 * ItemVariationData the new columns (one per distinct new region of its regions' pieces) and the
 * weights that take a blend's old deltas to them; the blends are rewritten with the new column
 * counts and the store is written anew (otv_part_cff_store). */
typedef struct otv_part_remap {
  unsigned data_count, kept_count;
  unsigned *k, *kn; /* per ItemVariationData: old and new column counts */
  double **w;       /* per ItemVariationData: k x kn weights (pinned factor x coefficient) */
  double **fold;    /* per ItemVariationData: k weights into the defaults */
  uint16_t **cols;  /* per ItemVariationData: kn indexes into the new region list */
  int16_t *regs;    /* the new region list: nregs x kept_count x (start, peak, end) */
  size_t regs_cap;
  unsigned nregs;
} otv_part_remap;
void otv_part_remap_free(otv_inst *in);
/* The new VariationStore of a remapped partial instance (its u16 length first) into out. */
otv_status otv_part_cff_store(otv_inst *in, otv_buf *out);
/* How each subroutine is entered (first call) and whether that varies. */
typedef struct otv_part_subr {
  uint32_t stems, depth;
  uint16_t vsindex;
  uint8_t seen, has_mask, has_blend, differ_stems, differ_vs;
  uint8_t inl; /* written inline where it is called */
} otv_part_subr;
typedef struct otv_part_subrs {
  void *w;               /* the charstring walker, allocated once per instance */
  otv_part_subr *global; /* per global subroutine */
  otv_part_subr **local; /* per Font DICT, per local subroutine */
  /* a full instance (instance/cff1.c): every blend resolved and rounded with floor(x + 0.5),
   * vsindex dropped; cff1: written for CFF version 1 (subroutines end with return, unused ones
   * are a bare return, at most OTV_MAX_STACK_CFF operands on the stack) */
  bool full, cff1;
} otv_part_subrs;
/* First pass over every glyph: fills ps (which subroutines are inlined). */
otv_status otv_part_cff_analyse(otv_inst *in, const int8_t *mode, const double *factor,
                                otv_part_subrs *ps);
void otv_part_subrs_free(otv_inst *in, otv_part_subrs *ps);
/* One glyph's charstring (calls to inl subroutines inlined, the others kept) appended to out. */
otv_status otv_part_cff_glyph(otv_inst *in, uint32_t gid, const int8_t *mode, const double *factor,
                              otv_part_subrs *ps, otv_buf *out);
/* Every subroutine of the global INDEX (fd -1) or of Font DICT fd, rewritten, into data with
 * offs[count + 1] offsets. */
otv_status otv_part_cff_subrs(otv_inst *in, const int8_t *mode, const double *factor,
                              otv_part_subrs *ps, int fd, otv_buf *data, uint32_t *offs);

#endif /* OTV_INSTANCE_INST_H */
