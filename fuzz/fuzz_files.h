/*
 * fuzz/fuzz_files.h - corpus replay: fz_replay_path(path, fn) calls
 * fn(name, data, size) for the file path, or for every file in the
 * directory path (names starting with '.' skipped).  Each input is read
 * into a heap buffer of exactly its size (so ASan sees an over-read).
 * Returns the number of inputs, or -1 when path cannot be opened.
 */
#ifndef ASMCRYPT_FUZZ_FILES_H
#define ASMCRYPT_FUZZ_FILES_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZF_MAX (1u << 16)

typedef void (*fz_input_fn)(const char *name, const uint8_t *data, size_t size);

/* 1 on success (fn called), 0 when path is not a readable file. */
static int fzf_file(const char *path, fz_input_fn fn)
{
    static uint8_t buf[FZF_MAX];
    FILE *f = fopen(path, "rb");
    uint8_t *copy;
    size_t n;
    int err;

    if (f == NULL)
        return 0;
    n = fread(buf, 1, sizeof(buf), f);
    err = ferror(f);
    fclose(f);
    if (err)
        return 0;
    copy = malloc(n ? n : 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, buf, n);
    fn(path, copy, n);
    free(copy);
    return 1;
}

static int fz_replay_path(const char *path, fz_input_fn fn)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int count = 0;

    if (d == NULL)
        return fzf_file(path, fn) ? 1 : -1;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *full;

        if (e->d_name[0] == '.')
            continue;
        full = malloc(len);
        if (full == NULL)
            break;
        snprintf(full, len, "%s/%s", path, e->d_name);
        count += fzf_file(full, fn);
        free(full);
    }
    closedir(d);
    return count;
}

#endif
