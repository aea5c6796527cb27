/*
 * Landmarks (ALT), the reading side: what a grid holds (ready, stale,
 * its memory, the landmark tiles) and a search set up to read one unit's
 * distance fields.  landmarks.c builds them and says why the heuristic
 * (landmarks.h) is consistent.
 */
#include "astar.h"
#include "internal.h"
#include "landmarks.h"

#define INF UINT32_MAX

size_t astar_landmarks_memory(const astar_grid *g) {
  const astar__landmarks *S;
  size_t total = 0;
  for (S = g->landmarks; S != NULL; S = S->next)
    total += sizeof *S + (size_t)g->width * (size_t)g->height *
                             (size_t)S->k * sizeof(uint32_t);
  return total;
}

int astar_landmarks_state(const astar_grid *g) {
  const astar__landmarks *S = g->landmarks;
  if (S == NULL) return ASTAR_LANDMARKS_NONE;
  for (; S != NULL; S = S->next)
    if (S->version != g->version) return ASTAR_LANDMARKS_STALE;
  return ASTAR_LANDMARKS_READY;
}

const astar__landmarks *astar__landmarks_of(const astar_grid *g, int unit) {
  const astar__landmarks *S;
  for (S = g->landmarks; S != NULL; S = S->next)
    if (S->unit == unit) return S->version == g->version ? S : NULL;
  return NULL;
}

int astar_landmark_tile(const astar_grid *g, int unit, int j, int32_t *x,
                        int32_t *y) {
  const astar__landmarks *S;
  for (S = g->landmarks; S != NULL; S = S->next)
    if (S->unit == unit) {
      if (j < 0 || j >= S->k || S->tiles[j] == INF) return 0;
      astar_xy(g, S->tiles[j], x, y);
      return 1;
    }
  return 0;
}

/* Sets up the landmark heuristic (MODE_LM) when the grid has landmarks
 * ready for the query's unit and the query is one they serve: A* to one
 * goal with the default heuristic, weight 1, a one-tile unit, no
 * callbacks, no links (landmarks.c's bound does not know them).  Returns
 * 1 when it did. */
int astar__landmarks_start(astar__run *S) {
  const astar_grid *G = S->G;
  const astar_query *q = &S->q;
  const astar__landmarks *lm;
  const uint32_t *dg;
  int32_t gx = q->gx, gy = q->gy;
  int j;
  if (q->no_landmarks || G->landmarks == NULL || G->nlinks != 0 ||
      q->size > 1 || q->heuristic != ASTAR_H_DEFAULT || q->weight != 1.0 ||
      q->heuristic_fn != NULL || q->tile_fn != NULL || q->move_fn != NULL ||
      (q->algorithm != ASTAR_ALGO_AUTO && q->algorithm != ASTAR_ALGO_ASTAR) ||
      q->ngoals != 0 || q->no_main_goal || q->next_to_blocked_goal ||
      q->goal_costs != NULL)
    return 0;
  if ((lm = astar__landmarks_of(G, q->unit)) == NULL) return 0;
  if (!astar__bit(S->L.passable, S->goal)) return 0;
  dg = lm->dist + ((size_t)gy * (size_t)G->width + (size_t)gx) * (size_t)lm->k;
  S->lm_n = 0;
  for (j = 0; j < lm->k; j++)
    if (dg[j] != UINT32_MAX) {
      S->lm_use[S->lm_n] = (uint8_t)j;
      S->lm_goal[S->lm_n] = dg[j];
      S->lm_n++;
    }
  if (S->lm_n == 0) return 0;
  S->lm_dist = lm->dist;
  S->lm_width = (uint32_t)G->width;
  S->lm_k = (uint32_t)lm->k;
  S->lm_q = lm->q;
  S->lm_kappa = lm->kappa;
  S->lm_eta = lm->eta;
  S->lm_phi_goal = lm->kappa * (double)S->L.cost[S->goal];
  if (S->L.height != NULL)
    S->lm_phi_goal += lm->eta * (double)S->L.height[S->goal];
  return 1;
}
