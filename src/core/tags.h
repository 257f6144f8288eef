/* core/tags.h - the table tags the library names, as constants (OTV_TAG from otvar.h). */
#ifndef OTV_CORE_TAGS_H
#define OTV_CORE_TAGS_H

#include "otvar.h"

#define OTV_T(a, b, c, d) OTV_TAG(a, b, c, d)
#define OTV_T_HEAD OTV_TAG('h', 'e', 'a', 'd')
#define OTV_T_MAXP OTV_TAG('m', 'a', 'x', 'p')
#define OTV_T_FVAR OTV_TAG('f', 'v', 'a', 'r')
#define OTV_T_AVAR OTV_TAG('a', 'v', 'a', 'r')
#define OTV_T_STAT OTV_TAG('S', 'T', 'A', 'T')
#define OTV_T_NAME OTV_TAG('n', 'a', 'm', 'e')
#define OTV_T_CMAP OTV_TAG('c', 'm', 'a', 'p')
#define OTV_T_GLYF OTV_TAG('g', 'l', 'y', 'f')
#define OTV_T_LOCA OTV_TAG('l', 'o', 'c', 'a')
#define OTV_T_GVAR OTV_TAG('g', 'v', 'a', 'r')
#define OTV_T_CFF OTV_TAG('C', 'F', 'F', ' ')
#define OTV_T_CFF2 OTV_TAG('C', 'F', 'F', '2')
#define OTV_T_HMTX OTV_TAG('h', 'm', 't', 'x')
#define OTV_T_HHEA OTV_TAG('h', 'h', 'e', 'a')
#define OTV_T_VMTX OTV_TAG('v', 'm', 't', 'x')
#define OTV_T_VHEA OTV_TAG('v', 'h', 'e', 'a')
#define OTV_T_HVAR OTV_TAG('H', 'V', 'A', 'R')
#define OTV_T_VVAR OTV_TAG('V', 'V', 'A', 'R')
#define OTV_T_MVAR OTV_TAG('M', 'V', 'A', 'R')
#define OTV_T_VORG OTV_TAG('V', 'O', 'R', 'G')
#define OTV_T_OS2 OTV_TAG('O', 'S', '/', '2')
#define OTV_T_POST OTV_TAG('p', 'o', 's', 't')
#define OTV_T_CVAR OTV_TAG('c', 'v', 'a', 'r')
#define OTV_T_CVT OTV_TAG('c', 'v', 't', ' ')
#define OTV_T_GASP OTV_TAG('g', 'a', 's', 'p')
#define OTV_T_GDEF OTV_TAG('G', 'D', 'E', 'F')
#define OTV_T_GPOS OTV_TAG('G', 'P', 'O', 'S')
#define OTV_T_GSUB OTV_TAG('G', 'S', 'U', 'B')
#define OTV_T_BASE OTV_TAG('B', 'A', 'S', 'E')
#define OTV_T_DSIG OTV_TAG('D', 'S', 'I', 'G')

#endif /* OTV_CORE_TAGS_H */
