/*
 * random.c: an engine for the Splendor bot protocol (SBP), version 1, in plain C99.
 *
 * It plays a uniformly random one of the legal actions that the host lists
 * with each position, so it needs no rules of Splendor at all: only a line
 * reader and a small JSON scanner, which check every message and answer an
 * `error` message to a line that is not one.
 *
 *     cc -std=c99 -O2 -o random examples/engines/random.c
 *     ./random
 *
 * Option Seed (an integer, default 1): the generator restarts from it at
 * every new game and whenever it is set.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROTOCOL_VERSION 1
#define MAX_LINE 1048576 /* bytes, the newline included */
#define MAX_DEPTH 64     /* deeper JSON is refused rather than recursed into */
#define FIELD_TEXT 64    /* the longest string field this engine needs to read */

/* ---- output --------------------------------------------------------------- */

static void send_line(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* An `error` message; `message` is a fixed text without quotes or backslashes. */
static void send_error(const char *code, const char *message) {
    fprintf(stderr, "error %s: %s\n", code, message);
    printf("{\"type\":\"error\",\"code\":\"%s\",\"message\":\"%s\"}\n", code, message);
    fflush(stdout);
}

/* ---- the random generator (splitmix64) ------------------------------------ */

static uint64_t rng_state;

static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ---- a small JSON scanner -------------------------------------------------- *
 * It checks that a text is JSON and remembers where the values of the few
 * top-level fields this engine reads begin; every other field is skipped. */

typedef struct {
    const char *p;
    const char *end;
    int depth;
} Scanner;

static void skip_space(Scanner *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int hex_value(char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* A string at s->p; its text goes into out (at most out_size - 1 bytes, the
 * rest dropped and *long_text set) when out is not NULL. */
static bool scan_string(Scanner *s, char *out, size_t out_size, bool *long_text) {
    size_t n = 0;
    if (s->p >= s->end || *s->p != '"') return false;
    s->p++;
    while (s->p < s->end) {
        char c = *s->p++;
        if (c == '"') {
            if (out) out[n] = '\0';
            return true;
        }
        if ((unsigned char)c < 0x20) return false;
        if (c == '\\') {
            if (s->p >= s->end) return false;
            c = *s->p++;
            switch (c) {
            case '"': case '\\': case '/': break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u':
                if (s->end - s->p < 4 || !is_hex(s->p[0]) || !is_hex(s->p[1]) || !is_hex(s->p[2]) || !is_hex(s->p[3]))
                    return false;
                /* ASCII stays itself; other characters become '?' (no name here needs them) */
                c = (s->p[0] == '0' && s->p[1] == '0' && s->p[2] < '8') ? (char)(hex_value(s->p[2]) * 16 + hex_value(s->p[3])) : '?';
                s->p += 4;
                break;
            default: return false;
            }
        }
        if (out) {
            if (n + 1 < out_size) out[n++] = c;
            else if (long_text) *long_text = true;
        }
    }
    return false;
}

static bool scan_number(Scanner *s) {
    const char *start = s->p;
    if (s->p < s->end && *s->p == '-') s->p++;
    if (s->p >= s->end || *s->p < '0' || *s->p > '9') return false;
    if (*s->p == '0') s->p++;
    else while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (s->p >= s->end || *s->p < '0' || *s->p > '9') return false;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
        if (s->p >= s->end || *s->p < '0' || *s->p > '9') return false;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
    }
    return s->p > start;
}

static bool scan_word(Scanner *s, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0) return false;
    s->p += n;
    return true;
}

static bool scan_value(Scanner *s);

/* An array or object; `count` (if not NULL) gets the number of its items. */
static bool scan_container(Scanner *s, bool object, long *count) {
    long items = 0;
    if (++s->depth > MAX_DEPTH) return false;
    s->p++; /* '[' or '{' */
    skip_space(s);
    if (s->p < s->end && *s->p == (object ? '}' : ']')) {
        s->p++;
    } else {
        for (;;) {
            skip_space(s);
            if (object) {
                if (!scan_string(s, NULL, 0, NULL)) return false;
                skip_space(s);
                if (s->p >= s->end || *s->p++ != ':') return false;
            }
            if (!scan_value(s)) return false;
            items++;
            skip_space(s);
            if (s->p >= s->end) return false;
            if (*s->p == ',') { s->p++; continue; }
            if (*s->p++ != (object ? '}' : ']')) return false;
            break;
        }
    }
    s->depth--;
    if (count) *count = items;
    return true;
}

static bool scan_value(Scanner *s) {
    skip_space(s);
    if (s->p >= s->end) return false;
    switch (*s->p) {
    case '{': return scan_container(s, true, NULL);
    case '[': return scan_container(s, false, NULL);
    case '"': return scan_string(s, NULL, 0, NULL);
    case 't': return scan_word(s, "true");
    case 'f': return scan_word(s, "false");
    case 'n': return scan_word(s, "null");
    default: return scan_number(s);
    }
}

/* ---- messages --------------------------------------------------------------- */

/* The top-level fields this engine reads; each points at its value, or is NULL. */
enum { F_TYPE, F_PROTOCOL, F_ID, F_NAME, F_VALUE, F_ACTIONS, F_VIEW, F_PLAYERS, F_SEAT, F_CARDS, F_NOBLES, F_TIME, F_INFINITE, F_COUNT };
static const char *const FIELD_NAMES[F_COUNT] = {"type", "protocol", "id", "name", "value", "actions", "view", "players", "seat", "cards", "nobles", "time", "infinite"};

typedef struct {
    const char *field[F_COUNT];
    const char *end;
} Message;

/* Scan one line as a JSON object; false if it is not JSON or not an object. */
static bool read_message(const char *line, size_t length, Message *m) {
    Scanner s = {line, line + length, 1};
    memset(m, 0, sizeof *m);
    m->end = s.end;
    skip_space(&s);
    if (s.p >= s.end || *s.p != '{') return false;
    s.p++;
    skip_space(&s);
    if (s.p < s.end && *s.p == '}') {
        s.p++;
    } else {
        for (;;) {
            char key[FIELD_TEXT];
            bool long_key = false;
            skip_space(&s);
            if (!scan_string(&s, key, sizeof key, &long_key)) return false;
            skip_space(&s);
            if (s.p >= s.end || *s.p++ != ':') return false;
            skip_space(&s);
            for (int f = 0; f < F_COUNT && !long_key; f++)
                if (strcmp(key, FIELD_NAMES[f]) == 0) m->field[f] = s.p;
            if (!scan_value(&s)) return false;
            skip_space(&s);
            if (s.p >= s.end) return false;
            if (*s.p == ',') { s.p++; continue; }
            if (*s.p++ != '}') return false;
            break;
        }
    }
    skip_space(&s);
    return s.p == s.end;
}

static bool get_string(const Message *m, int f, char *out, size_t out_size) {
    bool long_text = false;
    Scanner s = {m->field[f], m->end, 0};
    if (!m->field[f] || *m->field[f] != '"') return false;
    return scan_string(&s, out, out_size, &long_text) && !long_text;
}

/* An integer field (no fraction, no exponent, within long long). */
static bool get_integer(const Message *m, int f, long long *out) {
    const char *p = m->field[f];
    char *after;
    if (!p || !(*p == '-' || (*p >= '0' && *p <= '9'))) return false;
    *out = strtoll(p, &after, 10);
    return *after != '.' && *after != 'e' && *after != 'E' && after - p < 19;
}

static bool is_kind(const Message *m, int f, char first) {
    return m->field[f] && *m->field[f] == first;
}

/* The number of items of an array field whose items are all objects, or -1. */
static long count_objects(const Message *m, int f) {
    Scanner s = {m->field[f], m->end, 0};
    long items = 0;
    if (!is_kind(m, f, '[')) return -1;
    s.p++;
    skip_space(&s);
    if (*s.p == ']') return 0;
    for (;;) {
        skip_space(&s);
        if (*s.p != '{' || !scan_value(&s)) return -1;
        items++;
        skip_space(&s);
        if (*s.p++ != ',') return items;
    }
}

/* ---- the engine ------------------------------------------------------------- */

static unsigned long long seed = 1;
static long long position_id = -1; /* the last position's id, -1 before any */
static long position_actions = 0;
static long long waiting_id = -1;  /* the go of an infinite search, answered on stop */

static void best_move(long long id) {
    long index = (long)(rng_next() % (uint64_t)position_actions);
    printf("{\"type\":\"bestmove\",\"id\":%lld,\"index\":%ld}\n", id, index);
    fflush(stdout);
}

static void handle(const char *line, size_t length) {
    Message m;
    char type[FIELD_TEXT];
    long long number;

    if (!read_message(line, length, &m)) { send_error("malformed", "not a JSON object"); return; }
    if (!get_string(&m, F_TYPE, type, sizeof type)) { send_error("bad-field", "type must be a string"); return; }

    if (strcmp(type, "hello") == 0) {
        if (!get_integer(&m, F_PROTOCOL, &number)) { send_error("bad-field", "hello: protocol must be an integer"); return; }
        if (number != PROTOCOL_VERSION) { send_error("unsupported-version", "this engine speaks protocol 1"); return; }
        send_line("{\"type\":\"hello\",\"protocol\":1,\"name\":\"random.c\",\"author\":\"splendor-rules examples\","
                  "\"version\":\"1.0\",\"options\":[{\"name\":\"Seed\",\"kind\":\"int\",\"default\":1,\"min\":0,\"max\":4294967295}]}");
    } else if (strcmp(type, "isready") == 0) {
        send_line("{\"type\":\"readyok\"}");
    } else if (strcmp(type, "setoption") == 0) {
        char name[FIELD_TEXT];
        if (!get_string(&m, F_NAME, name, sizeof name) || strcmp(name, "Seed") != 0) {
            send_error("bad-field", "setoption: the only option is Seed");
        } else if (!get_integer(&m, F_VALUE, &number) || number < 0 || number > 4294967295LL) {
            send_error("bad-field", "setoption Seed: expected an integer from 0 to 4294967295");
        } else {
            seed = (unsigned long long)number;
            rng_state = seed;
        }
    } else if (strcmp(type, "newgame") == 0) {
        long long players, seat;
        if (!get_integer(&m, F_PLAYERS, &players) || !get_integer(&m, F_SEAT, &seat) ||
            !is_kind(&m, F_CARDS, '[') || !is_kind(&m, F_NOBLES, '[')) {
            send_error("bad-field", "newgame: players, seat, cards and nobles are required");
            return;
        }
        rng_state = seed;
        position_id = -1;
    } else if (strcmp(type, "position") == 0) {
        long actions = count_objects(&m, F_ACTIONS);
        if (!get_integer(&m, F_ID, &number) || !is_kind(&m, F_VIEW, '{') || actions < 0) {
            send_error("bad-field", "position: id, view and actions (a list of objects) are required");
        } else if (actions == 0) {
            send_error("bad-position", "position: no actions listed");
        } else {
            position_id = number;
            position_actions = actions;
        }
    } else if (strcmp(type, "go") == 0) {
        if (!get_integer(&m, F_ID, &number)) { send_error("bad-field", "go: id must be an integer"); return; }
        if (position_id < 0 || number != position_id) { send_error("out-of-order", "go: no position with that id was sent"); return; }
        if (is_kind(&m, F_INFINITE, 't')) waiting_id = number;
        else best_move(number); /* at once: well within any time limit */
    } else if (strcmp(type, "stop") == 0) {
        if (waiting_id >= 0) {
            best_move(waiting_id);
            waiting_id = -1;
        }
    } else if (strcmp(type, "quit") == 0) {
        exit(0);
    } else {
        send_error("unknown-type", "unknown message type");
    }
}

/* Read one line into `line` (without its newline): its length, -1 at the end
 * of input, -2 for a line over MAX_LINE bytes (read to its end and dropped). */
static long read_line(char *line) {
    long n = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n < MAX_LINE - 1) line[n] = (char)c;
        n++;
    }
    if (c == EOF && n == 0) return -1;
    return n >= MAX_LINE ? -2 : n;
}

int main(void) {
    static char line[MAX_LINE];
    long length;
    rng_state = seed;
    while ((length = read_line(line)) != -1) {
        if (length == -2) { send_error("too-long", "a line is at most 1048576 bytes"); continue; }
        bool blank = true;
        for (long i = 0; i < length; i++)
            if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') blank = false;
        if (!blank) handle(line, (size_t)length);
    }
    return 0;
}
