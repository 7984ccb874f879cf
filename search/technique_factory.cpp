#include "search/technique_factory.h"

#include "search/model_order_technique.h"

namespace ktune {

// Until the ensemble lands: the model's ranking in order (the tuner's earlier policy).
std::unique_ptr<Technique> make_search_technique(const TechniqueContext& context) {
  return std::make_unique<ModelOrderTechnique>(context.model_ranked);
}

}  // namespace ktune
