#include <stdio.h>
#include <stdlib.h>

struct node {
	int val;
	struct node *next;
};

struct box {
	char label[8];
	int grid[2];
	double ratio;
	struct node *list;
	const char *name;
};

int total = 7;

int main(int argc, char *argv[])
{
	int n = atoi(argv[1]);
	struct box b = {"box", {1, n}, n / 2.0, NULL, argv[1]};
	struct node *second = malloc(sizeof *second);
	int *heap = malloc(4 * sizeof(int));
	int *alias = heap + 1;
	int i;
	second->val = n;
	second->next = NULL;
	b.list = malloc(sizeof *b.list);
	b.list->val = 1;
	b.list->next = second;
	for (i = 0; i < 4; i++)
		heap[i] = i * n;
	total += n;
	printf("%s %d %d %g %d %s %d %d %d\n", b.label, b.grid[1], b.list->next->val, b.ratio, *alias, b.name, heap[3], total, n); /* probe */
	return 0;
}
