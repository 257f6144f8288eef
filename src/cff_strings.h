/*
 * cff_strings.h - the CFF standard strings (Adobe TN 5176, Appendix A: SIDs 0..390), the glyph
 * names a name-keyed CFF font uses without storing them (cff_strings.c). Used by the builder's
 * CFF masters (build/cff2.c: glyph names for the designspace's rules) and the CFF instancer
 * (instance/cff1.c: the String INDEX of a CFF instance).
 */
#ifndef OTV_CFF_STRINGS_H
#define OTV_CFF_STRINGS_H

#define OTV_CFF_STD_STRINGS 391
extern const char *const otv_cff_std_strings[OTV_CFF_STD_STRINGS];

#endif /* OTV_CFF_STRINGS_H */
