"""Small helpers shared by the tensor and the graph (PyTorch keeps the same in ``torch.utils``)."""
