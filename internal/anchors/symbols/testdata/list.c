/* list.c: a realistic C fixture. */
#ifndef LIST_H
#define LIST_H

#include <stdlib.h>
#include "list.h"

#define LIST_MAX 1024
#define LIST_FOREACH(it, l) \
    for ((it) = (l)->head; (it) != NULL; (it) = (it)->next)

typedef struct node {
    int value;
    struct node *next;
} node_t;

typedef struct {
    node_t *head;
    size_t len;
} list_t;

enum list_status { LIST_OK, LIST_FULL };

typedef int (*list_cmp)(const void *, const void *);

list_t *list_new(void);
static int list_push(list_t *l, int value);
void list_free(list_t *l);

list_t *list_new(void) {
    list_t *l = calloc(1, sizeof *l);
    return l;
}

static int list_push(list_t *l, int value) {
    if (l->len >= LIST_MAX) {
        return LIST_FULL;
    }
    node_t *n = malloc(sizeof *n);
    n->value = value;
    n->next = l->head;
    l->head = n;
    l->len++;
    return LIST_OK;
}

#endif
