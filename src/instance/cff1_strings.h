/*
 * instance/cff1_strings.h - the fixed name lists of a CFF (version 1) instance
 * (instance/cff1_strings.c): the CFF standard strings and the standard Macintosh glyph names.
 */
#ifndef OTV_INSTANCE_CFF1_STRINGS_H
#define OTV_INSTANCE_CFF1_STRINGS_H

#define OTV_CFF1_STD_STRINGS 391 /* TN 5176 Appendix A: SIDs 0..390 */
#define OTV_POST_MAC_NAMES 258   /* post 2.0: glyphNameIndex 0..257 */
extern const char *const otv_cff1_std_strings[OTV_CFF1_STD_STRINGS];
extern const char *const otv_post_mac_names[OTV_POST_MAC_NAMES];

#endif /* OTV_INSTANCE_CFF1_STRINGS_H */
