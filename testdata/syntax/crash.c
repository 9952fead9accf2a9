/* A small statistics library; the compiler crashes on the division in
 * the loop of summarize(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 128

struct sample {
    int id;
    double value;
    const char *label;
};

struct stats {
    double min, max, mean;
    int count;
};

static int compare(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    if (x->value < y->value)
        return -1;
    if (x->value > y->value)
        return 1;
    return 0;
}

static void print_sample(const struct sample *s)
{
    printf("%d %s %f\n", s->id, s->label ? s->label : "-", s->value);
}

static int parse_line(const char *line, struct sample *out)
{
    char buf[64];
    if (sscanf(line, "%d %63s %lf", &out->id, buf, &out->value) != 3)
        return -1;
    out->label = strdup(buf);
    return 0;
}

int summarize(struct sample *s, int n, struct stats *st)
{
    int i, d = n;
    double sum = 0;
    st->min = s[0].value;
    st->max = s[0].value;
    for (i = 0; i < n; i++) {
        sum += s[i].value;
        if (s[i].value < st->min)
            st->min = s[i].value;
        if (s[i].value > st->max)
            st->max = s[i].value;
        st->mean = sum / d;
    }
    switch (n) {
    case 0:
        return -1;
    case 1:
        st->count = 1;
        break;
    default:
        st->count = n;
    }
    return 0;
}

static void histogram(const struct sample *s, int n, int buckets)
{
    int counts[16] = {0};
    int i, j;
    if (buckets > 16)
        buckets = 16;
    for (i = 0; i < n; i++) {
        int b = (int)(s[i].value * buckets) % buckets;
        if (b < 0)
            b = -b;
        counts[b]++;
    }
    for (i = 0; i < buckets; i++) {
        printf("%2d ", i);
        for (j = 0; j < counts[i]; j++)
            putchar('#');
        putchar('\n');
    }
}

int main(int argc, char **argv)
{
    struct sample samples[MAX_SAMPLES];
    struct stats st;
    char line[256];
    int n = 0;
    FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    while (n < MAX_SAMPLES && fgets(line, sizeof line, f))
        if (parse_line(line, &samples[n]) == 0)
            n++;
    qsort(samples, n, sizeof samples[0], compare);
    for (int i = 0; i < n; i++)
        print_sample(&samples[i]);
    if (summarize(samples, n, &st) == 0)
        printf("min %f max %f mean %f count %d\n", st.min, st.max, st.mean, st.count);
    histogram(samples, n, 10);
    return 0;
}
