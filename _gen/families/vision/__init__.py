"""Images of eval-vision-v1: the Pillow renderer and the pixel readers of its second proof."""
