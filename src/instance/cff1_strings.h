/*
 * instance/cff1_strings.h - the fixed name lists of a CFF (version 1) instance
 * (instance/cff1_strings.c): the CFF standard strings (the standard Macintosh glyph names are in
 * post_names.h).
 */
#ifndef OTV_INSTANCE_CFF1_STRINGS_H
#define OTV_INSTANCE_CFF1_STRINGS_H

#define OTV_CFF1_STD_STRINGS 391 /* TN 5176 Appendix A: SIDs 0..390 */
extern const char *const otv_cff1_std_strings[OTV_CFF1_STD_STRINGS];

#endif /* OTV_INSTANCE_CFF1_STRINGS_H */
