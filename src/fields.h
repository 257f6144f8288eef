/*
 * fields.h - byte offsets of the fixed fields the library reads or writes in head, hhea/vhea,
 * maxp, OS/2 and post (spec: each table's chapter), named as the spec names them. Header only.
 */
#ifndef OTV_FIELDS_H
#define OTV_FIELDS_H

/* head (54 bytes) */
#define HEAD_FONT_REVISION 4
#define HEAD_CHECKSUM_ADJUSTMENT 8
#define HEAD_MAGIC_NUMBER 12
#define HEAD_FLAGS 16
#define HEAD_UNITS_PER_EM 18
#define HEAD_X_MIN 36
#define HEAD_Y_MIN 38
#define HEAD_X_MAX 40
#define HEAD_Y_MAX 42
#define HEAD_MAC_STYLE 44
#define HEAD_INDEX_TO_LOC_FORMAT 50
#define HEAD_LEN 54
#define HEAD_FLAG_LSB_AT_X_MIN 0x0002u /* flags bit 1: left sidebearing point at x = 0 */
#define HEAD_MAC_STYLE_BOLD 0x0001u
#define HEAD_MAC_STYLE_ITALIC 0x0002u

/* hhea and vhea (36 bytes each; vhea names: vertTypoAscender..., advanceHeightMax...) */
#define HHEA_ASCENDER 4
#define HHEA_DESCENDER 6
#define HHEA_LINE_GAP 8
#define HHEA_ADVANCE_MAX 10
#define HHEA_MIN_LEADING_BEARING 12  /* minLeftSideBearing / minTopSideBearing */
#define HHEA_MIN_TRAILING_BEARING 14 /* minRightSideBearing / minBottomSideBearing */
#define HHEA_MAX_EXTENT 16           /* xMaxExtent / yMaxExtent */
#define HHEA_CARET_SLOPE_RISE 18
#define HHEA_CARET_SLOPE_RUN 20
#define HHEA_CARET_OFFSET 22
#define HHEA_NUMBER_OF_LONG_METRICS 34 /* numberOfHMetrics / numOfLongVerMetrics */
#define HHEA_LEN 36

/* maxp: numGlyphs in both versions; the version 1.0 fields a static instance recomputes */
#define MAXP_VERSION_TRUETYPE 0x00010000u /* version 1.0 (0.5: CFF) */
#define MAXP_NUM_GLYPHS 4
#define MAXP_MAX_POINTS 6
#define MAXP_MAX_CONTOURS 8
#define MAXP_MAX_COMPOSITE_POINTS 10
#define MAXP_MAX_COMPOSITE_CONTOURS 12
#define MAXP_MAX_COMPONENT_ELEMENTS 28
#define MAXP_MAX_COMPONENT_DEPTH 30
#define MAXP_V1_LEN 32

/* OS/2 */
#define OS2_VERSION 0
#define OS2_US_WEIGHT_CLASS 4
#define OS2_US_WIDTH_CLASS 6
#define OS2_ACH_VEND_ID 58
#define OS2_FS_SELECTION 62
#define OS2_S_TYPO_ASCENDER 68
#define OS2_S_TYPO_DESCENDER 70
#define OS2_V0_LEN 78 /* version 0 with the typo metrics (Microsoft's) */
#define OS2_FS_SELECTION_ITALIC 0x0001u
#define OS2_FS_SELECTION_BOLD 0x0020u
#define OS2_FS_SELECTION_REGULAR 0x0040u
#define OS2_FS_SELECTION_USE_TYPO_METRICS 0x0080u

/* post */
#define POST_ITALIC_ANGLE 4

#endif /* OTV_FIELDS_H */
