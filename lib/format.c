/* format.c - reading and writing puzzles: 81-character lines, printed 9-line
 * grids, 729-character candidate grids, printed pencilmark grids, HoDoKu
 * library lines and SadMan .sdk files; a reader that splits a stream of lines
 * into puzzles. Errors say what, where, why.
 *
 * An empty cell is '.', '0', '*' or '_' wherever a cell is one character.
 * A HoDoKu library line (":0000:x:<grid>:<removed>:...") holds its position in
 * the third field (a '+' before a digit: placed, not given) and candidates
 * already removed in the fourth ("436 512": digit, row, column). A SadMan
 * .sdk file has '#X' header lines, then the puzzle, bare or under a [Puzzle]
 * line; its other sections ([State], [PencilMarks], ...) are skipped. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "sudoku/alloc.h"
#include "sudoku/format.h"

void sdk_error_set(sdk_error *e, const char *code, const char *fmt, ...)
{
    if (!e) return;
    snprintf(e->code, sizeof e->code, "%s", code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

static bool is_cell_char(int ch)
{
    return (ch >= '0' && ch <= '9') || ch == '.';
}
/* An empty cell where a cell is one character. */
static bool is_empty_cell(int ch)
{
    return ch == '.' || ch == '0' || ch == '*' || ch == '_';
}
/* A border line of a printed grid: no digits, at least one of "-=+". */
static bool is_separator_line(const char *s, size_t n)
{
    bool rule = false;
    for (size_t i = 0; i < n; i++) {
        if (!s[i] || !strchr("-+=|*:'. \t\r", s[i])) return false;
        if (s[i] == '-' || s[i] == '=' || s[i] == '+') rule = true;
    }
    return rule;
}
static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i])) return false;
    return true;
}

/* Length of the first whitespace-delimited token of s. */
static size_t token_len(const char *s)
{
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n])) n++;
    return n;
}

/* Values -> grid with a check that no digit is twice in a house. */
static bool grid_from_values_checked(sdk_grid *g, const uint8_t v[81], sdk_error *err)
{
    sdk_grid_init(g);
    char why[200];
    for (int c = 0; c < 81; c++) g->value[c] = v[c];
    /* Check duplicates on the raw values before propagating. */
    if (!sdk_grid_check(g, why, sizeof why) && strstr(why, "twice")) {
        sdk_error_set(err, SDK_E_CONFLICT, "%s", why);
        return false;
    }
    sdk_grid_from_values(g, v);
    return true;
}

void sdk_grid_from_values(sdk_grid *g, const uint8_t values[81])
{
    sdk_grid_init(g);
    for (int c = 0; c < 81; c++)
        if (values[c]) sdk_grid_place(g, c, values[c], true);
}

/* Build a grid from a pencilmark grid: masks per cell, single digits solved. */
static bool grid_from_masks(sdk_grid *g, const uint16_t m[81], sdk_error *err)
{
    uint8_t v[81];
    for (int c = 0; c < 81; c++)
        v[c] = sdk_mask_count(m[c]) == 1 ? (uint8_t)sdk_mask_first(m[c]) : 0;
    if (!grid_from_values_checked(g, v, err)) return false;
    for (int c = 0; c < 81; c++) {
        if (v[c]) {
            g->given[c] = 0;
            continue;
        }
        for (int d = 1; d <= 9; d++)
            if (!(m[c] & sdk_digit_bit(d))) sdk_grid_eliminate(g, c, d);
    }
    char why[200];
    if (!sdk_grid_check(g, why, sizeof why)) {
        sdk_error_set(err, SDK_E_CONFLICT, "%s", why);
        return false;
    }
    return true;
}

/* 729 characters: 9 per cell, digits present are candidates; a cell with one
 * candidate is taken as solved (placed), as in a printed pencilmark grid. */
static bool parse_cands729(const char *s, sdk_grid *g, sdk_error *err)
{
    uint16_t mask[81];
    char name[8];
    for (int c = 0; c < 81; c++) {
        unsigned m = 0;
        for (int k = 0; k < 9; k++) {
            int ch = s[c * 9 + k];
            if (ch >= '1' && ch <= '9')
                m |= sdk_digit_bit(ch - '0');
            else if (ch != '.' && ch != '0') {
                sdk_error_set(err, SDK_E_FORMAT, "%s: unexpected character '%c' in candidates",
                              sdk_cell_name(c, name), ch);
                return false;
            }
        }
        if (!m) {
            sdk_error_set(err, SDK_E_CONFLICT, "%s has no candidate", sdk_cell_name(c, name));
            return false;
        }
        mask[c] = (uint16_t)m;
    }
    return grid_from_masks(g, mask, err);
}

static bool parse_line81(const char *s, size_t tok, sdk_grid *g, sdk_error *err)
{
    uint8_t v[81];
    char name[8];
    size_t n = tok < 81 ? tok : 81;
    for (size_t i = 0; i < n; i++) {
        int ch = (unsigned char)s[i];
        if (!is_cell_char(ch) && !is_empty_cell(ch)) {
            if (i >= 81) break;
            if (isprint(ch))
                sdk_error_set(err, SDK_E_FORMAT, "%s: unexpected character '%c'",
                              sdk_cell_name((int)i, name), ch);
            else
                sdk_error_set(err, SDK_E_FORMAT, "%s: unexpected byte 0x%02x",
                              sdk_cell_name((int)i, name), ch);
            return false;
        }
        v[i] = is_empty_cell(ch) ? 0 : (uint8_t)(ch - '0');
    }
    if (tok < 81) {
        sdk_error_set(err, SDK_E_FORMAT, "%zu cells, expected 81", tok);
        return false;
    }
    return grid_from_values_checked(g, v, err);
}

/* A printed grid over several lines: rows of 9 cells (givens) or rows of 9
 * candidate groups (pencilmarks). */
static bool parse_printed(const char *text, sdk_grid *g, sdk_error *err)
{
    uint16_t mask[81];
    uint8_t v[81];
    bool pencil = false;
    int row = 0;
    const char *p = text;
    int lineno = 0;
    while (*p && row < 9) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        lineno++;
        if (!is_blank(p, n) && !is_separator_line(p, n)) {
            /* Tokens split by spaces and '|'. */
            char line[1024];
            size_t ln = n < sizeof line - 1 ? n : sizeof line - 1;
            memcpy(line, p, ln);
            line[ln] = 0;
            char *tok[64];
            int nt = 0;
            for (char *t = strtok(line, " \t\r|"); t && nt < 64; t = strtok(NULL, " \t\r|"))
                tok[nt++] = t;
            bool digits_only = nt == 9, multi = false;
            for (int i = 0; i < nt && digits_only; i++) {
                for (char *q = tok[i]; *q; q++)
                    if (*q < '1' || *q > '9') digits_only = false;
                if (strlen(tok[i]) > 1) multi = true;
            }
            if (digits_only && multi) pencil = true;
            if (digits_only) {
                for (int i = 0; i < 9; i++) {
                    uint16_t m = 0;
                    for (char *q = tok[i]; *q; q++) m |= (uint16_t)sdk_digit_bit(*q - '0');
                    mask[row * 9 + i] = m;
                    v[row * 9 + i] = strlen(tok[i]) == 1 ? (uint8_t)(tok[i][0] - '0') : 0;
                }
            } else {
                int k = 0;
                for (size_t i = 0; i < n; i++) {
                    int ch = (unsigned char)p[i];
                    if (ch == '|' || isspace(ch) || ch == '+' || ch == '-') continue;
                    if (!is_cell_char(ch) && ch != '_' && ch != '*') {
                        char name[8];
                        sdk_error_set(err, SDK_E_FORMAT, "%s: unexpected character '%c'",
                                      sdk_cell_name(row * 9 + (k < 9 ? k : 8), name), ch);
                        return false;
                    }
                    if (k < 9) {
                        int d = (ch >= '1' && ch <= '9') ? ch - '0' : 0;
                        v[row * 9 + k] = (uint8_t)d;
                        mask[row * 9 + k] = d ? (uint16_t)sdk_digit_bit(d) : SDK_ALL_DIGITS;
                    }
                    k++;
                }
                if (k != 9) {
                    sdk_error_set(err, SDK_E_FORMAT, "row %d (line %d): %d cells, expected 9",
                                  row + 1, lineno, k);
                    return false;
                }
            }
            row++;
        }
        p = eol ? eol + 1 : p + n;
    }
    if (row < 9) {
        sdk_error_set(err, SDK_E_FORMAT, "%d rows, expected 9", row);
        return false;
    }
    if (pencil) return grid_from_masks(g, mask, err);
    return grid_from_values_checked(g, v, err);
}

/* A HoDoKu library line: ":<technique>:<digits>:<grid>:<removed>:<elims>:
 * <placements>:<extra>" (6 or 7 colons; see ../shared/reglib/FORMAT.md). The
 * position is the grid field ('+d' placed, 'd' given) with the removed
 * candidates ("436 512": digit, row, column) taken out. */
static bool parse_library(const char *s, size_t n, sdk_grid *g, sdk_error *err)
{
    const char *field[8];
    size_t flen[8];
    int nf = 0;
    const char *p = s + 1; /* after the leading ':' */
    const char *end = s + n;
    while (nf < 8) {
        const char *c = memchr(p, ':', (size_t)(end - p));
        field[nf] = p;
        flen[nf] = c ? (size_t)(c - p) : (size_t)(end - p);
        nf++;
        if (!c) break;
        p = c + 1;
    }
    if (nf < 3) {
        sdk_error_set(err, SDK_E_FORMAT,
                      "library line: %d field%s after the first ':', expected the grid in the "
                      "third (:technique:digits:grid:removed:...)",
                      nf, nf == 1 ? "" : "s");
        return false;
    }
    /* grid: 81 cells, '+' before a placed digit */
    uint8_t v[81];
    bool placed[81] = {false};
    char name[8];
    const char *q = field[2], *qe = field[2] + flen[2];
    int cell = 0;
    while (q < qe) {
        int ch = (unsigned char)*q++;
        bool plus = ch == '+';
        if (plus) {
            ch = q < qe ? (unsigned char)*q++ : 0;
            if (ch < '1' || ch > '9') {
                sdk_error_set(err, SDK_E_FORMAT,
                              "library line, grid field: %s: '+' must be followed by a digit 1-9",
                              sdk_cell_name(cell < 81 ? cell : 80, name));
                return false;
            }
        }
        if (!(ch >= '1' && ch <= '9') && !is_empty_cell(ch)) {
            if (isprint(ch))
                sdk_error_set(err, SDK_E_FORMAT,
                              "library line, grid field: %s: unexpected character '%c'",
                              sdk_cell_name(cell < 81 ? cell : 80, name), ch);
            else
                sdk_error_set(err, SDK_E_FORMAT,
                              "library line, grid field: %s: unexpected byte 0x%02x",
                              sdk_cell_name(cell < 81 ? cell : 80, name), ch);
            return false;
        }
        if (cell < 81) {
            v[cell] = is_empty_cell(ch) ? 0 : (uint8_t)(ch - '0');
            placed[cell] = plus;
        }
        cell++;
    }
    if (cell != 81) {
        sdk_error_set(err, SDK_E_FORMAT, "library line, grid field: %d cells, expected 81", cell);
        return false;
    }
    if (!grid_from_values_checked(g, v, err)) return false;
    for (int c = 0; c < 81; c++)
        if (placed[c]) g->given[c] = 0;
    /* removed candidates */
    if (nf > 3) {
        const char *r = field[3], *re = field[3] + flen[3];
        while (r < re) {
            while (r < re && *r == ' ') r++;
            const char *t = r;
            while (r < re && *r != ' ') r++;
            size_t tl = (size_t)(r - t);
            if (!tl) continue;
            if (tl != 3 || t[0] < '1' || t[0] > '9' || t[1] < '1' || t[1] > '9' || t[2] < '1' ||
                t[2] > '9') {
                sdk_error_set(err, SDK_E_FORMAT,
                              "library line, removed field: '%.*s' is not a candidate "
                              "(<digit><row><column>, each 1-9)",
                              (int)(tl < 16 ? tl : 16), t);
                return false;
            }
            int d = t[0] - '0', c = (t[1] - '1') * 9 + (t[2] - '1');
            if (g->value[c]) {
                sdk_error_set(err, SDK_E_FORMAT,
                              "library line, removed field: %.3s: %s already holds %d", t,
                              sdk_cell_name(c, name), g->value[c]);
                return false;
            }
            sdk_grid_eliminate(g, c, d);
        }
    }
    char why[200];
    if (!sdk_grid_check(g, why, sizeof why)) {
        sdk_error_set(err, SDK_E_CONFLICT, "%s", why);
        return false;
    }
    return true;
}

/* "[Name]" alone on a line (a SadMan .sdk section header): its name's length,
 * 0 when the line is not one. */
static size_t section_header(const char *s, size_t n, const char **name)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    if (n < 3 || s[0] != '[' || s[n - 1] != ']') return 0;
    for (size_t i = 1; i + 1 < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != ' ') return 0;
    *name = s + 1;
    return n - 2;
}

static bool is_puzzle_section(const char *name, size_t n)
{
    return n == 6 && !strncasecmp(name, "puzzle", 6);
}

bool sdk_parse(const char *text, sdk_grid *g, sdk_error *err)
{
restart:;
    const char *p = text;
    /* Skip leading blank lines, comment lines and borders. */
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        const char *e0 = strchr(p, '\n');
        if (*p == '#' || is_separator_line(p, e0 ? (size_t)(e0 - p) : strlen(p))) {
            const char *e = strchr(p, '\n');
            p = e ? e + 1 : p + strlen(p);
            continue;
        }
        break;
    }
    if (!*p) {
        sdk_error_set(err, SDK_E_FORMAT, "empty puzzle");
        return false;
    }
    const char *eol0 = strchr(p, '\n');
    size_t n0 = eol0 ? (size_t)(eol0 - p) : strlen(p);
    if (*p == ':') {
        while (n0 && (p[n0 - 1] == '\r' || p[n0 - 1] == ' ' || p[n0 - 1] == '\t')) n0--;
        return parse_library(p, n0, g, err);
    }
    const char *sec;
    size_t sl = section_header(p, n0, &sec);
    if (sl) {
        /* SadMan .sdk: the puzzle is the [Puzzle] section */
        if (!is_puzzle_section(sec, sl)) {
            const char *q = p;
            for (;;) {
                const char *e = strchr(q, '\n');
                size_t ln = e ? (size_t)(e - q) : strlen(q);
                const char *nm;
                size_t l = section_header(q, ln, &nm);
                if (l && is_puzzle_section(nm, l)) break;
                if (!e) {
                    sdk_error_set(err, SDK_E_FORMAT,
                                  "section [%.*s] but no [Puzzle] section (SadMan .sdk)",
                                  (int)(sl < 32 ? sl : 32), sec);
                    return false;
                }
                q = e + 1;
            }
            p = q;
        }
        const char *e = strchr(p, '\n');
        if (!e) {
            sdk_error_set(err, SDK_E_FORMAT, "[Puzzle] section with no rows");
            return false;
        }
        /* rows follow; a 81-character line is fine too */
        text = e + 1;
        goto restart;
    }
    size_t tok = token_len(p);
    size_t cellish = 0;
    while (cellish < tok && is_cell_char((unsigned char)p[cellish])) cellish++;
    if (cellish >= 729) return parse_cands729(p, g, err);
    const char *eol = strchr(p, '\n');
    bool one_line = !eol || is_blank(eol, strlen(eol));
    if (tok >= 20 || one_line) return parse_line81(p, tok, g, err);
    return parse_printed(p, g, err);
}

/* ---- reader ------------------------------------------------------------- */

/* A row of a printed grid: 9 candidate groups (digits only, split by spaces
 * and '|'), or 9 cells once separators are dropped. */
static bool is_grid_row(const char *s, size_t n)
{
    int groups = 0, cells = 0;
    bool in_group = false, digits_only = true;
    for (size_t i = 0; i < n; i++) {
        int ch = (unsigned char)s[i];
        bool sep = ch == ' ' || ch == '\t' || ch == '|' || ch == '\r';
        if (sep) {
            in_group = false;
            continue;
        }
        if (!in_group) groups++;
        in_group = true;
        if (ch < '1' || ch > '9') digits_only = false;
        if (is_cell_char(ch) || ch == '_' || ch == '*')
            cells++;
        else if (ch != '+' && ch != '-')
            return false;
        /* neither can hold any more (an 81-character line ends here) */
        if (cells > 9 && (groups > 9 || !digits_only)) return false;
    }
    return (digits_only && groups == 9) || cells == 9;
}

void sdk_reader_init(sdk_reader *r, FILE *in)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    struct stat st;
    int fd = fileno(in);
    r->blocks = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

void sdk_reader_free(sdk_reader *r)
{
    free(r->buf);
    free(r->pending);
    free(r->block);
    memset(r, 0, sizeof *r);
}

#define READER_BLOCK ((size_t)128 << 10)

/* The next line of a regular file, without its '\n' and NUL-terminated in
 * place (the length counts NUL bytes within it, as getline's does): the
 * block is refilled when no whole line is left in it, the partial line
 * moved to its front first (a longer line grows it). -1 at the end. */
static ssize_t block_line(sdk_reader *r, char **line)
{
    for (bool eof = false;;) {
        char *p = r->block ? r->block + r->pos : NULL; /* NULL before the first read */
        size_t left = r->end - r->pos;
        char *nl = left ? memchr(p, '\n', left) : NULL;
        if (nl || (eof && left)) {
            size_t n = nl ? (size_t)(nl - p) : left;
            p[n] = 0; /* the '\n', or the spare byte after the end */
            r->pos += nl ? n + 1 : n;
            *line = p;
            return (ssize_t)n;
        }
        if (eof) return -1;
        if (left) memmove(r->block, p, left); /* (memmove of NULL is undefined) */
        r->pos = 0;
        r->end = left;
        if (!r->block || r->block_cap - 1 - left < READER_BLOCK / 2) {
            r->block_cap = r->block_cap ? r->block_cap * 2 : READER_BLOCK;
            r->block = sdk_xrealloc(r->block, r->block_cap);
        }
        size_t want = r->block_cap - 1 - left;
        size_t got = fread(r->block + left, 1, want, r->in);
        r->end += got;
        if (got < want) eof = true; /* the end, or an error (ferror tells) */
    }
}

/* The usual line, 16 cells at a time (GCC/clang vector extensions: SSE2
 * on x86-64, NEON elsewhere): a cell is a digit when c - '0' is at most 9
 * (unsigned), and its value is that difference; '.' is 0; anything else
 * marks the line. */
typedef uint8_t cells16 __attribute__((vector_size(16)));

bool sdk_line81_values(const char *s, uint8_t v[81])
{
    cells16 bad = {0};
    for (int k = 0; k < 80; k += 16) {
        cells16 c, d, digit;
        memcpy(&c, s + k, 16);
        d = c - '0';
        digit = (cells16)(d <= 9);
        bad |= ~(digit | (cells16)(c == '.'));
        d &= digit;
        memcpy(v + k, &d, 16);
    }
    uint8_t c = (uint8_t)s[80], d = (uint8_t)(c - '0');
    v[80] = d <= 9 ? d : 0;
    uint64_t half[2];
    memcpy(half, &bad, 16);
    return !(half[0] | half[1]) && (d <= 9 || c == '.');
}

static void buf_append(sdk_reader *r, size_t *len, const char *s, size_t n)
{
    if (*len + n + 2 > r->cap) {
        r->cap = (*len + n + 2) * 2;
        r->buf = sdk_xrealloc(r->buf, r->cap);
    }
    memcpy(r->buf + *len, s, n);
    *len += n;
    r->buf[*len] = 0;
}

int sdk_reader_next(sdk_reader *r, const char **text, long *first_line)
{
    size_t len = 0;
    int rows = 0;
    ssize_t n;
    for (;;) {
        char *line;
        if (r->has_pending) {
            line = r->held;
            n = (ssize_t)strlen(line);
            r->has_pending = false;
        } else {
            if (r->blocks) {
                n = block_line(r, &line);
            } else {
                n = getline(&r->pending, &r->pcap, r->in);
                line = r->pending;
            }
            if (n < 0) break;
            r->held = line;
            r->line++;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        uint8_t values[81];
        if (rows == 0 && !r->skip_section && n == 81 && sdk_line81_values(line, values)) {
            /* the usual line, a puzzle of 81 cells: what the tests below
             * conclude for it (no section, separator or grid row), at once;
             * the line itself (NUL-terminated above), valid until the next
             * call as r->buf is */
            *first_line = r->line;
            *text = line;
            r->len = 81;
            return 1;
        }
        const char *sec;
        size_t sl = rows == 0 ? section_header(line, (size_t)n, &sec) : 0;
        if (sl) { /* SadMan .sdk: only the [Puzzle] section holds the puzzle */
            r->skip_section = !is_puzzle_section(sec, sl);
            continue;
        }
        if (r->skip_section) {
            if (line[0] != '#') continue;
            r->skip_section = false; /* a header line: the next file of a concatenation */
        }
        if (rows == 0 && (is_blank(line, (size_t)n) || line[0] == '#')) continue;
        if (is_separator_line(line, (size_t)n)) {
            if (rows == 0) continue;
            buf_append(r, &len, line, (size_t)n);
            buf_append(r, &len, "\n", 1);
            continue;
        }
        bool row = is_grid_row(line, (size_t)n);
        if (rows == 0 && !row) {
            /* One puzzle on one line (or a bad line, reported alone). */
            *first_line = r->line;
            buf_append(r, &len, line, (size_t)n);
            *text = r->buf;
            r->len = strlen(r->buf);
            return 1;
        }
        if (!row) {
            /* A short grid: hand it over; this line starts the next puzzle. */
            r->has_pending = true;
            *text = r->buf;
            r->len = strlen(r->buf);
            return 1;
        }
        if (rows == 0) *first_line = r->line;
        buf_append(r, &len, line, (size_t)n);
        buf_append(r, &len, "\n", 1);
        if (++rows == 9) {
            *text = r->buf;
            r->len = strlen(r->buf);
            return 1;
        }
    }
    if (ferror(r->in)) return -1;
    if (rows > 0) {
        *text = r->buf;
        r->len = strlen(r->buf);
        return 1;
    }
    return 0;
}

/* ---- writers ------------------------------------------------------------ */

char *sdk_format_line(const sdk_grid *g, char *out)
{
    for (int c = 0; c < 81; c++) out[c] = g->value[c] ? (char)('0' + g->value[c]) : '.';
    out[81] = 0;
    return out;
}

char *sdk_format_cands729(const sdk_grid *g, char *out)
{
    for (int c = 0; c < 81; c++) {
        unsigned m = g->value[c] ? sdk_digit_bit(g->value[c]) : g->cand[c];
        for (int d = 1; d <= 9; d++)
            out[c * 9 + d - 1] = (m & sdk_digit_bit(d)) ? (char)('0' + d) : '.';
    }
    out[729] = 0;
    return out;
}

char *sdk_format_printed(const sdk_grid *g, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int r = 0; r < 9; r++) {
        if (r == 3 || r == 6)
            len += (size_t)snprintf(out + len, n - len, "------+-------+------\n");
        for (int c = 0; c < 9; c++) {
            int v = g->value[r * 9 + c];
            len += (size_t)snprintf(out + len, n - len, "%s%c",
                                    c == 0 ? "" : (c % 3 == 0 ? " | " : " "), v ? '0' + v : '.');
            if (len >= n) return out;
        }
        len += (size_t)snprintf(out + len, n - len, "\n");
        if (len >= n) return out;
    }
    return out;
}

char *sdk_format_pencilmarks(const sdk_grid *g, char *out, size_t n)
{
    char cell[81][10];
    int width[9] = {0};
    for (int c = 0; c < 81; c++) {
        int k = 0;
        if (g->value[c])
            cell[c][k++] = (char)('0' + g->value[c]);
        else
            SDK_MASK_FOREACH(d, g->cand[c]) cell[c][k++] = (char)('0' + d);
        cell[c][k] = 0;
        if (k > width[c % 9]) width[c % 9] = k;
    }
    size_t len = 0;
    out[0] = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        if (len < n) len += (size_t)snprintf(out + len, n - len, __VA_ARGS__);                     \
    } while (0)
    for (int r = 0; r <= 9; r++) {
        if (r % 3 == 0) {
            for (int b = 0; b < 3; b++) {
                PUT("%c", b == 0 ? (r == 0 ? '.' : (r == 9 ? '\'' : ':'))
                                 : (r == 0 ? '.' : (r == 9 ? '\'' : '+')));
                int w = 1;
                for (int c = b * 3; c < b * 3 + 3; c++) w += width[c] + 2;
                for (int i = 0; i < w; i++) PUT("-");
            }
            PUT("%c\n", r == 0 ? '.' : (r == 9 ? '\'' : ':'));
        }
        if (r == 9) break;
        for (int c = 0; c < 9; c++) {
            if (c % 3 == 0) PUT("| ");
            PUT("%-*s  ", width[c], cell[r * 9 + c]);
        }
        PUT("|\n");
    }
#undef PUT
    return out;
}
